/** A part of the page that failed to load, with a way to try again. */
export function ErrorState({ message, onRetry }: { message: string; onRetry?: (() => void) | undefined }) {
  return (
    <div className="state-message" role="alert">
      <p>{message}</p>
      {onRetry && (
        <button type="button" className="button button-secondary" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
