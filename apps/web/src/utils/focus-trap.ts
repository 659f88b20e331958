const focusableSelector = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'iframe',
  'summary',
  '[contenteditable="true"]',
  '[tabindex]:not([tabindex="-1"])',
].join(', ');

/** What Tab can reach inside `container`, in order: enabled, and not inside anything hidden. */
export function tabbableWithin(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(focusableSelector)].filter(
    (element) => !element.closest('[hidden], [inert]') && element.tabIndex >= 0,
  );
}

/**
 * Keeps Tab and Shift+Tab inside `container` (a modal: the page behind it is out of reach):
 * from the last element Tab goes round to the first, and Shift+Tab from the first to the last.
 */
export function keepTabInside(event: KeyboardEvent, container: HTMLElement): void {
  if (event.key !== 'Tab') return;
  const tabbable = tabbableWithin(container);
  const first = tabbable[0];
  const last = tabbable[tabbable.length - 1];
  if (!first || !last) {
    // Nothing to move to: focus stays where it is, inside.
    event.preventDefault();
    return;
  }
  const active = document.activeElement;
  const outside = !container.contains(active);
  if (event.shiftKey && (active === first || active === container || outside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || outside)) {
    event.preventDefault();
    first.focus();
  }
}
