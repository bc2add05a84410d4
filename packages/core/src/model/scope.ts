import { z } from 'zod';

const idString = z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters');

/** Who a memory belongs to. Every unit, cue, tag and relation carries one; every query is filtered by one. */
export const scopeSchema = z.strictObject({
  /** The tenant: memories of one user are never visible to another. */
  userId: idString,
  /** Optional agent within the user's space. */
  agentId: idString.optional(),
  /** Optional conversation session. */
  sessionId: idString.optional(),
});

/** Who a memory belongs to. */
export type Scope = z.output<typeof scopeSchema>;

/**
 * A query scope: `userId` is required; `agentId` / `sessionId`, when given, narrow the match.
 * A record matches when every field the filter names is equal.
 */
export const scopeFilterSchema = scopeSchema;
/** A query scope. */
export type ScopeFilter = Scope;

/** True when `scope` (of a stored record) falls inside `filter`. */
export function scopeMatches(filter: ScopeFilter, scope: Scope): boolean {
  if (scope.userId !== filter.userId) return false;
  if (filter.agentId !== undefined && scope.agentId !== filter.agentId) return false;
  if (filter.sessionId !== undefined && scope.sessionId !== filter.sessionId) return false;
  return true;
}

/** The tenant part of a scope: what `forget()` removes. */
export function tenantOf(scope: Scope): { userId: string; agentId?: string } {
  return scope.agentId === undefined ? { userId: scope.userId } : { userId: scope.userId, agentId: scope.agentId };
}
