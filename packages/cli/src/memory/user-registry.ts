import { randomUUID } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError } from '../cli-errors.js';

/** File in the store directory listing the users the CLI has written to. */
export const userRegistryFile = 'users.json';

interface RegistryFile {
  version: 1;
  users: string[];
}

/**
 * The users the CLI has written to in a store. The store port has no "list tenants" query, so the
 * CLI keeps this small list next to the data. It is only changed by a process holding the store's
 * write lock, and replaced atomically (write a temporary file, then rename), so readers never see
 * half of it.
 */
export async function readUsers(storePath: string): Promise<string[]> {
  const path = join(storePath, userRegistryFile);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new CliError(`${path}: cannot read the user list (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  try {
    const value = JSON.parse(text) as Partial<RegistryFile>;
    if (!Array.isArray(value.users) || !value.users.every((user) => typeof user === 'string')) throw new Error('expected { "users": [string, …] }');
    return [...value.users].sort();
  } catch (error) {
    throw new CliError(`${path}: the user list is damaged (${error instanceof Error ? error.message : String(error)}); delete it and re-run engram ingest to rebuild it`);
  }
}

async function writeUsers(storePath: string, users: ReadonlyArray<string>): Promise<void> {
  const path = join(storePath, userRegistryFile);
  const temporary = `${path}.${process.pid}.${randomUUID()}.tmp`;
  const content: RegistryFile = { version: 1, users: [...new Set(users)].sort() };
  try {
    await writeFile(temporary, `${JSON.stringify(content, null, 2)}\n`, 'utf8');
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new CliError(`${path}: cannot update the user list (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

/** Records users as present in the store (call while holding the write lock). */
export async function addUsers(storePath: string, users: ReadonlyArray<string>): Promise<void> {
  const current = await readUsers(storePath);
  if (users.every((user) => current.includes(user))) return;
  await writeUsers(storePath, [...current, ...users]);
}

/** Removes a user from the list (call while holding the write lock). */
export async function removeUser(storePath: string, user: string): Promise<void> {
  const current = await readUsers(storePath);
  if (!current.includes(user)) return;
  await writeUsers(storePath, current.filter((entry) => entry !== user));
}
