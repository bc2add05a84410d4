import { InvalidInputError } from '../../../errors/index.js';

/** Runs `action` and returns the InvalidInputError it throws (or rejects with); fails otherwise. */
export async function catchInputErrorAsync(action: () => Promise<unknown>): Promise<InvalidInputError> {
  try {
    await action();
  } catch (error) {
    if (InvalidInputError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidInputError');
}

/** Runs `action` and returns the InvalidInputError it throws; fails otherwise. */
export function catchInputError(action: () => unknown): InvalidInputError {
  try {
    action();
  } catch (error) {
    if (InvalidInputError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidInputError');
}
