/** Model calls and tokens, as counted by a {@link UsageMeter}. */
export interface ModelUsage {
  /** Model calls made (each attempt of a retried call counts). */
  calls: number;
  /** Input (prompt) tokens reported by the provider. */
  inputTokens: number;
  /** Output (completion) tokens reported by the provider. */
  outputTokens: number;
}

/** What the model is used for: each role can have its own model. */
export type ModelRole = 'distill' | 'navigate' | 'answer' | 'judge';

/** The roles, in report order. */
export const modelRoles: ReadonlyArray<ModelRole> = ['distill', 'navigate', 'answer', 'judge'];

/** Counts model calls and tokens, per role and in total. Shared by every model-backed part that is given it. */
export interface UsageMeter {
  /** Adds one call's usage under a role (tokens a provider does not report count as 0). */
  record(role: ModelRole, usage: { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined): void;
  /** Totals over every role. */
  total(): ModelUsage;
  /** Totals of one role. */
  of(role: ModelRole): ModelUsage;
}

/** An empty usage. */
export function emptyUsage(): ModelUsage {
  return { calls: 0, inputTokens: 0, outputTokens: 0 };
}

/** `after - before`, field by field. */
export function usageSince(before: ModelUsage, after: ModelUsage): ModelUsage {
  return { calls: after.calls - before.calls, inputTokens: after.inputTokens - before.inputTokens, outputTokens: after.outputTokens - before.outputTokens };
}

/** A fresh meter. */
export function createUsageMeter(): UsageMeter {
  const byRole = new Map<ModelRole, ModelUsage>(modelRoles.map((role) => [role, emptyUsage()]));
  return {
    record(role, usage) {
      const entry = byRole.get(role) as ModelUsage;
      entry.calls += 1;
      entry.inputTokens += usage?.inputTokens ?? 0;
      entry.outputTokens += usage?.outputTokens ?? 0;
    },
    total() {
      const sum = emptyUsage();
      for (const usage of byRole.values()) {
        sum.calls += usage.calls;
        sum.inputTokens += usage.inputTokens;
        sum.outputTokens += usage.outputTokens;
      }
      return sum;
    },
    of(role) {
      return { ...(byRole.get(role) as ModelUsage) };
    },
  };
}
