import { StoreError, createEngram, type Distiller, type Engram, type Navigator } from '@engram/core';
import { createLmdbStore, type LmdbStore } from '@engram/store-lmdb';
import { CliError, UsageError } from '../cli-errors.js';
import { readUsers } from './user-registry.js';

/** An engram over the LMDB store at a path. */
export interface OpenMemory {
  /** The engine. */
  engram: Engram;
  /** Its store. */
  store: LmdbStore;
  /** The store directory. */
  path: string;
  /** Disposes the engram and its store (idempotent). */
  close(): Promise<void>;
}

/** Options of {@link openMemory}. */
export interface OpenMemoryOptions {
  /** The store directory. */
  path: string;
  /** Open as a reader: no lock, never writes; the store must exist. */
  readOnly: boolean;
  /** Receives the store's non-fatal warnings. */
  warn: (message: string) => void;
  /** The policy of active recall. @default the offline navigator */
  navigator?: Navigator;
  /** Builds the memory graph of each session written. @default the offline distiller */
  distiller?: Distiller;
}

/** Rewords the store's errors for someone at a terminal; other errors pass through. */
export function explainStoreError(error: unknown, path: string): unknown {
  if (!StoreError.isInstance(error)) return error;
  if (error.code === 'locked') {
    const holder = /by process (\d+)/.exec(error.message)?.[1];
    return new CliError(
      `store ${path} is being written by another process${holder === undefined ? '' : ` (pid ${holder})`}: wait for it to finish (or stop that engram mcp / engram ingest) and retry`,
    );
  }
  if (error.code === 'not-found') {
    return new CliError(`no memory at ${path} yet: run engram ingest <file> first, or point --store / ENGRAM_STORE at an existing store`);
  }
  return error;
}

/**
 * Opens the LMDB store at `path` and an engram over it. Writers take the store's single-writer
 * lock (a second writer fails at once with a clear error); readers can run beside a writer.
 */
export async function openMemory(options: OpenMemoryOptions): Promise<OpenMemory> {
  let store: LmdbStore;
  try {
    store = await createLmdbStore({ path: options.path, readOnly: options.readOnly, onWarning: options.warn });
  } catch (error) {
    throw explainStoreError(error, options.path);
  }
  const engram = createEngram({ store, ...(options.navigator ? { navigator: options.navigator } : {}), ...(options.distiller ? { distiller: options.distiller } : {}) });
  let closing: Promise<void> | undefined;
  return {
    engram,
    store,
    path: options.path,
    close: () => (closing ??= engram.dispose()),
  };
}

/**
 * The user a reading command works on: the one the settings name; else the store's only user, or
 * `default` when the store has it; with several users and none chosen, a usage error listing them.
 */
export async function chooseUser(storePath: string, user: string | undefined): Promise<string> {
  if (user !== undefined) return user;
  const users = await readUsers(storePath);
  if (users.length === 0 || users.includes('default')) return 'default';
  if (users.length === 1) return users[0] as string;
  const shown = users.length > 8 ? `${users.slice(0, 8).join(', ')}, … (${users.length} in all)` : users.join(', ');
  throw new UsageError(`the store ${storePath} holds several users (${shown}): choose one with --user or ENGRAM_USER`);
}
