/**
 * A search under way (shown once it takes a while). Found and not found have their own panels;
 * a failed search has LookupFailed, in the counter's second chunk.
 */
export function LookupNotices() {
  return (
    <p role="status" className="rounded-lg border border-slate-300 bg-white p-4 text-slate-700">
      Buscando cliente…
    </p>
  );
}
