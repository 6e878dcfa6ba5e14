/**
 * A stream revision as an HTTP entity tag, and back: `ETag: "7"` on a read, `If-Match: "7"` on a write.
 * Strong comparison (RFC 9110, 13.1.1): weak tags (`W/"7"`) and tags of another shape match nothing.
 */
export function revisionTag(revision: bigint): string {
  return `"${revision}"`;
}

/**
 * The revisions an If-Match header accepts: null when there is no precondition (absent or `*`),
 * otherwise the revisions listed (possibly none, which no current state satisfies).
 */
export function parseIfMatch(header: string | string[] | undefined): bigint[] | null {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value === undefined || value.trim() === '' || value.trim() === '*') return null;
  const revisions: bigint[] = [];
  for (const tag of value.split(',')) {
    const m = /^"(0|[1-9][0-9]{0,18})"$/.exec(tag.trim());
    if (m) revisions.push(BigInt(m[1]));
  }
  return revisions;
}
