const marker = Symbol.for('engram.error');

/** Base class of every error Engram throws; `EngramError.isInstance()` survives two copies of the package. */
export class EngramError extends Error {
  readonly [marker] = true;
  override readonly name: string = 'EngramError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }

  /** True when `error` is an Engram error, even one thrown by another copy of this package. */
  static isInstance(error: unknown): error is EngramError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}

const invalidMarker = Symbol.for('engram.error.invalid-input');

/** A value entering through the public API failed validation; `path` names the bad field. */
export class InvalidInputError extends EngramError {
  readonly [invalidMarker] = true;
  override readonly name = 'InvalidInputError';
  /** Path of the first bad field, e.g. `units[2].context.eventTime.start`. */
  readonly path: string;
  /** Every issue found, each with its own path. */
  readonly issues: ReadonlyArray<{ path: string; message: string }>;
  /** Where the value came from (file, record, line), when known. */
  readonly source: string | undefined;

  constructor(options: {
    message: string;
    path: string;
    issues?: ReadonlyArray<{ path: string; message: string }>;
    source?: string;
    cause?: unknown;
  }) {
    super(options.message, { cause: options.cause });
    this.path = options.path;
    this.issues = options.issues ?? [{ path: options.path, message: options.message }];
    this.source = options.source;
  }

  static override isInstance(error: unknown): error is InvalidInputError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[invalidMarker] === true;
  }
}

const storeMarker = Symbol.for('engram.error.store');

/** A store backend failed; `store` names it. Nothing of the failed batch was written. */
export class StoreError extends EngramError {
  readonly [storeMarker] = true;
  override readonly name = 'StoreError';
  /** Name of the store that failed, e.g. `store-lmdb`. */
  readonly store: string;
  /** Machine-readable reason, e.g. `locked`, `not-writable`, `format-version`, `dimension-mismatch`, `disposed`. */
  readonly code: string;

  constructor(options: { store: string; code: string; message: string; cause?: unknown }) {
    super(options.message, { cause: options.cause });
    this.store = options.store;
    this.code = options.code;
  }

  static override isInstance(error: unknown): error is StoreError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[storeMarker] === true;
  }
}

const modelMarker = Symbol.for('engram.error.model');

/** A model provider call failed after its retries; names the provider and model id. */
export class ModelError extends EngramError {
  readonly [modelMarker] = true;
  override readonly name = 'ModelError';
  /** Provider name, e.g. `openai`. */
  readonly provider: string;
  /** Model id, e.g. `gpt-4.1-mini`. */
  readonly modelId: string;

  constructor(options: { provider: string; modelId: string; message: string; cause?: unknown }) {
    super(options.message, { cause: options.cause });
    this.provider = options.provider;
    this.modelId = options.modelId;
  }

  static override isInstance(error: unknown): error is ModelError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[modelMarker] === true;
  }
}
