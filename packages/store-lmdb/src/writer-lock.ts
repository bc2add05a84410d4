import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { StoreError } from '@engram/core';
import type { Databases } from './layout.js';

/** Who holds the write lock (kept in LMDB's `meta` under `writer`). */
export interface WriterLock {
  /** Process id of the holder. */
  pid: number;
  /** Host of the holder. */
  host: string;
  /** Random token of the holding store instance. */
  token: string;
  /** When it was taken (ISO). */
  since: string;
}

/** True while `pid` runs (a zombie — killed, not yet reaped — counts as gone). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/**
 * Takes the single-writer lock inside an LMDB write transaction (LMDB serialises those across
 * processes, so two openers cannot both win). A lock left by a process that is gone is taken over
 * with a warning; a live holder makes this throw a `StoreError` with code `locked`.
 */
export function acquireWriterLock(databases: Databases, path: string, token: string, warn: (message: string) => void): void {
  const host = hostname();
  databases.root.transactionSync(() => {
    const current = databases.meta.get('writer') as WriterLock | undefined;
    if (current !== undefined && current.token !== token) {
      const alive = current.host !== host || processAlive(current.pid);
      if (alive) {
        throw new StoreError({
          store: 'store-lmdb',
          code: 'locked',
          message: `store-lmdb: ${path} is open for writing by process ${current.pid} on ${current.host} since ${current.since}; open it with { readOnly: true } to read, or close the other writer first`,
        });
      }
      warn(`store-lmdb: taking over the write lock of ${path} from process ${current.pid}, which is no longer running`);
    }
    const lock: WriterLock = { pid: process.pid, host, token, since: new Date().toISOString() };
    databases.meta.putSync('writer', lock);
  });
}

/** Inside a write transaction: throws `locked` unless this instance still holds the lock. */
export function assertWriterLock(databases: Databases, path: string, token: string): void {
  const current = databases.meta.get('writer') as WriterLock | undefined;
  if (current?.token === token) return;
  throw new StoreError({
    store: 'store-lmdb',
    code: 'locked',
    message: `store-lmdb: this store lost the write lock of ${path}${current === undefined ? '' : ` to process ${current.pid} on ${current.host}`}; nothing was written`,
  });
}

/** Releases the lock if this instance still holds it. */
export function releaseWriterLock(databases: Databases, token: string): void {
  databases.root.transactionSync(() => {
    const current = databases.meta.get('writer') as WriterLock | undefined;
    if (current?.token === token) databases.meta.removeSync('writer');
  });
}
