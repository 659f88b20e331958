/**
 * Writes `text` over the field's selection (or at its cursor) and leaves the cursor after it.
 * Going through the field itself keeps the browser's undo history; answers the field's new value.
 */
export function insertAtCursor(field: HTMLInputElement | HTMLTextAreaElement, text: string): string {
  field.focus();
  const end = field.value.length;
  field.setRangeText(text, field.selectionStart ?? end, field.selectionEnd ?? end, 'end');
  return field.value;
}
