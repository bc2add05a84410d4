import { createHash } from 'node:crypto';
import type { Scope } from './scope.js';

/**
 * A stable id from a prefix, the scope and parts of the content: the same input always yields the
 * same id, so re-ingesting the same turns writes nothing new.
 */
export function stableId(prefix: string, scope: Pick<Scope, 'userId' | 'agentId'>, ...parts: ReadonlyArray<string | number>): string {
  const hash = createHash('sha256');
  hash.update(scope.userId);
  hash.update('\u0000');
  hash.update(scope.agentId ?? '');
  for (const part of parts) {
    hash.update('\u0000');
    hash.update(String(part));
  }
  return `${prefix}_${hash.digest('base64url').slice(0, 22)}`;
}
