import { useId, useState, type InputHTMLAttributes, type KeyboardEvent, type LiHTMLAttributes } from 'react';

type ComboboxOptions<T> = {
  /** The options listed now (empty while closed, searching or too short). */
  items: readonly T[];
  /** Identifies the query the items answer: a new one highlights its first item again. */
  query: string;
  /** Whether the popup is open for the text typed (the message shows even with no items). */
  shown: boolean;
  text: string;
  setText: (text: string) => void;
  open: boolean;
  setOpen: (open: boolean) => void;
  onPick: (item: T) => void;
  /** Enter never submits a surrounding form (the template editor's picker); else only when an item is picked. */
  enterNeverSubmits?: boolean;
};

/**
 * The keyboard and ARIA behaviour of a search-as-you-type combobox (WAI-ARIA's list autocomplete),
 * shared by the header's search and the PDF Editor's record picker: the first item is highlighted, the
 * arrow keys move, Enter picks, Escape closes and then clears, a click picks without losing focus first.
 */
export function useCombobox<T>(options: ComboboxOptions<T>) {
  const { items, query, shown, text, setText, open, setOpen, onPick, enterNeverSubmits } = options;
  const listboxId = useId();
  // The highlighted item, remembered per query.
  const [highlight, setHighlight] = useState({ query: '', index: 0 });

  const expanded = items.length > 0;
  const active = highlight.query === query ? Math.min(highlight.index, items.length - 1) : 0;
  const optionId = (index: number) => `${listboxId}-option-${index}`;

  const pick = (item: T) => {
    setText('');
    setOpen(false);
    onPick(item);
  };

  const move = (step: number) => {
    const index = (active + step + items.length) % items.length;
    setHighlight({ query, index });
    document.getElementById(optionId(index))?.scrollIntoView?.({ block: 'nearest' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp':
        event.preventDefault();
        if (!open) setOpen(true);
        else if (expanded) move(event.key === 'ArrowDown' ? 1 : -1);
        break;
      case 'Enter': {
        const item = expanded ? items[active] : undefined;
        if (item !== undefined || enterNeverSubmits) event.preventDefault();
        if (item !== undefined) pick(item);
        break;
      }
      case 'Escape':
        if (shown) {
          event.preventDefault();
          setOpen(false);
        } else if (text) {
          event.preventDefault();
          setText('');
        }
        break;
    }
  };

  const inputProps = {
    type: 'search',
    role: 'combobox',
    'aria-autocomplete': 'list',
    'aria-expanded': expanded,
    'aria-controls': listboxId,
    'aria-activedescendant': expanded ? optionId(active) : undefined,
    autoComplete: 'off',
    spellCheck: false,
    value: text,
    onChange: (event) => {
      setText(event.target.value);
      setOpen(true);
    },
    onFocus: () => setOpen(true),
    onBlur: () => setOpen(false),
    onKeyDown,
  } satisfies InputHTMLAttributes<HTMLInputElement>;

  const optionProps = (item: T, index: number) =>
    ({
      id: optionId(index),
      role: 'option',
      'aria-selected': index === active,
      // Keeps focus in the box, so the click lands before the list closes on blur.
      onMouseDown: (event) => event.preventDefault(),
      onMouseMove: () => index !== active && setHighlight({ query, index }),
      onClick: () => pick(item),
    }) satisfies LiHTMLAttributes<HTMLLIElement>;

  return { expanded, inputProps, optionProps, listboxProps: { id: listboxId, role: 'listbox' } };
}
