/** Success messages the spec words verbatim, shared by the server's answers and the web's toasts. */
export const messages = {
  creditCardDeleted: 'Credit card deleted successfully.',
  allDeleted: 'All Credit cards deleted successfully.',
  noticeDeleted: 'Notice deleted successfully.',
} as const;
