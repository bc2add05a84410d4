import { accessSync, constants, existsSync, mkdirSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { StoreError } from '@engram/core';
import { open, type RootDatabase } from 'lmdb';
import { databaseCount, formatVersion, openDatabases, type Databases } from './layout.js';
import type { LmdbStoreOptions } from './lmdb-store-options.js';

const storeName = 'store-lmdb';

/** True for errors that mean "the file system refuses to let us write". */
export function isPermissionError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return true;
  return /EACCES|EROFS|EPERM|permission denied|read-only file system/i.test(String((error as Error | undefined)?.message ?? error));
}

/** True for errors that mean "no room left" (full disk, file size limit, LMDB map full). */
export function isSpaceError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC' || code === 'EFBIG' || code === 'EDQUOT') return true;
  return /ENOSPC|EFBIG|EDQUOT|MDB_MAP_FULL|no space left|file too large|disk quota|map ?full|-30792|errno: 28|errno: 27/i.test(String((error as Error | undefined)?.message ?? error));
}

/** True for a plain I/O error (LMDB reports a short write, e.g. on a full disk, as EIO). */
export function isIoError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code as unknown;
  return code === 'EIO' || code === 5 || /Input\/output error|EIO/.test(String((error as Error | undefined)?.message ?? error));
}

/** True when the file system holding `path` has (almost) no room left. */
export function lowOnSpace(path: string): boolean {
  try {
    const stats = statfsSync(path);
    return stats.bavail * stats.bsize < 16 * 1024 * 1024;
  } catch {
    return false;
  }
}

function notWritable(path: string, cause: unknown): StoreError {
  return new StoreError({ store: storeName, code: 'not-writable', message: `store-lmdb: cannot write to ${path} (${cause instanceof Error ? cause.message : String(cause)}); open it with { readOnly: true } or fix its permissions`, cause });
}

/** Checks the directory before LMDB touches it, so problems surface as clear errors. */
function checkDirectory(path: string, readOnly: boolean): void {
  if (readOnly) {
    if (!existsSync(join(path, 'data.mdb'))) {
      throw new StoreError({ store: storeName, code: 'not-found', message: `store-lmdb: no store at ${path} (a reader cannot create one; open it once without readOnly)` });
    }
    return;
  }
  try {
    mkdirSync(path, { recursive: true });
    accessSync(path, constants.W_OK);
    for (const file of ['data.mdb', 'lock.mdb']) if (existsSync(join(path, file))) accessSync(join(path, file), constants.R_OK | constants.W_OK);
  } catch (error) {
    if (isPermissionError(error)) throw notWritable(path, error);
    throw new StoreError({ store: storeName, code: 'open-failed', message: `store-lmdb: cannot open ${path}: ${String(error)}`, cause: error });
  }
}

/**
 * Opens the LMDB environment and its sub-databases, checks the format version and the vector
 * dimension, and (writers) stamps a new store with the format version.
 */
export function openEnvironment(options: LmdbStoreOptions): { root: RootDatabase; databases: Databases; dims: number | undefined } {
  const readOnly = options.readOnly ?? false;
  checkDirectory(options.path, readOnly);
  let root: RootDatabase;
  try {
    root = open({
      path: options.path,
      maxDbs: databaseCount + 4,
      readOnly,
      noSubdir: false,
      ...(options.mapSize === undefined ? {} : { mapSize: options.mapSize }),
      ...(options.maxReaders === undefined ? {} : { maxReaders: options.maxReaders }),
    });
  } catch (error) {
    if (isPermissionError(error)) throw notWritable(options.path, error);
    throw new StoreError({ store: storeName, code: 'open-failed', message: `store-lmdb: cannot open LMDB at ${options.path}: ${String(error)}`, cause: error });
  }
  const fail = (error: StoreError): never => {
    void root.close();
    throw error;
  };
  let databases: Databases;
  try {
    databases = openDatabases(root);
  } catch (error) {
    if (isPermissionError(error)) return fail(notWritable(options.path, error));
    return fail(new StoreError({ store: storeName, code: 'open-failed', message: `store-lmdb: cannot open the databases of ${options.path}: ${String(error)}`, cause: error }));
  }
  const stored = databases.meta.get('formatVersion') as number | undefined;
  if (stored !== undefined && stored > formatVersion) {
    fail(
      new StoreError({
        store: storeName,
        code: 'format-version',
        message: `store-lmdb: ${options.path} was written in format ${stored}, this version reads format ${formatVersion} or older; upgrade @engram/store-lmdb`,
      }),
    );
  }
  const dims = databases.meta.get('dims') as number | undefined;
  if (options.dims !== undefined && dims !== undefined && options.dims !== dims) {
    fail(
      new StoreError({
        store: storeName,
        code: 'dimension-mismatch',
        message: `store-lmdb: ${options.path} holds ${dims}-dimensional vectors, but the store was opened with dims ${options.dims}`,
      }),
    );
  }
  if (!readOnly && (stored === undefined || (options.dims !== undefined && dims === undefined))) {
    try {
      root.transactionSync(() => {
        if (stored === undefined) databases.meta.putSync('formatVersion', formatVersion);
        if (options.dims !== undefined && dims === undefined) databases.meta.putSync('dims', options.dims);
      });
    } catch (error) {
      if (isPermissionError(error)) fail(notWritable(options.path, error));
      throw error;
    }
  }
  return { root, databases, dims: dims ?? options.dims };
}
