/**
 * What a user typed into a record wizard, kept in this browser's localStorage until it is submitted or
 * discarded, so a session that ends (or a closed tab) loses nothing. Keyed by the user's id, so another
 * person signing in on the same computer never sees it.
 */
export type Draft = Record<string, string>;

const PREFIX = 'draft:';

export const draftKey = (userId: string, form: string) => `${PREFIX}${userId}:${form}`;

export function readDraft(key: string, storage: Storage = window.localStorage): Draft | null {
  try {
    const stored: unknown = JSON.parse(storage.getItem(key) ?? 'null');
    if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return null;
    const values = Object.entries(stored).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    );
    return values.length > 0 ? Object.fromEntries(values) : null;
  } catch {
    return null;
  }
}

export function writeDraft(key: string, draft: Draft, storage: Storage = window.localStorage): void {
  try {
    storage.setItem(key, JSON.stringify(draft));
  } catch {
    // Storage full or refused (private mode): the form goes on without a kept draft.
  }
}

export function removeDraft(key: string, storage: Storage = window.localStorage): void {
  storage.removeItem(key);
}
