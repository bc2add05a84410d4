import * as crypto from 'node:crypto';
import type { Scope } from './scope.js';

// One-shot hashing (Node ≥ 20.12) skips building a Hash object: ids are made by the thousand.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'base64url') => string }).hash;

/**
 * A stable id from a prefix, the scope and parts of the content: the same input always yields the
 * same id, so re-ingesting the same turns writes nothing new.
 */
export function stableId(prefix: string, scope: Pick<Scope, 'userId' | 'agentId'>, ...parts: ReadonlyArray<string | number>): string {
  let key = `${scope.userId}\u0000${scope.agentId ?? ''}`;
  for (const part of parts) key += `\u0000${String(part)}`;
  const digest = oneShot === undefined ? crypto.createHash('sha256').update(key).digest('base64url') : oneShot('sha256', key, 'base64url');
  return `${prefix}_${digest.slice(0, 22)}`;
}
