import { useState } from 'react';
import { useDebouncedValue } from './use-debounced-value.ts';

/** How long typing in a list's Search... box settles before the list asks the server again. */
export const LIST_SEARCH_DEBOUNCE_MS = 300;

/**
 * A list's Search... box: the text as typed, and the search the list sends once typing settles
 * (trimmed; '' for the whole list).
 */
export function useListSearch() {
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), LIST_SEARCH_DEBOUNCE_MS);
  return { text, setText, search };
}
