/** An inline error under a form or view, announced to screen readers; nothing when there is none. */
export function ErrorMessage({ error, testId }: { error: string | undefined; testId?: string }) {
  if (!error) return null;
  return (
    <div className="error" role="alert" {...(testId ? { 'data-testid': testId } : {})}>
      {error}
    </div>
  );
}
