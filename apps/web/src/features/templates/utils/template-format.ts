import type { EmailTemplate } from '@notice-desk/contract/templates';

/**
 * An e-mail subject is sent as one plain line (the server merges it as text): it is edited in a
 * text field, since a rich-text editor would wrap it in <p> and the tags would reach the subject.
 */
export const isPlainTextTemplate = (template: Pick<EmailTemplate, 'key'>) =>
  template.key.startsWith('email-subject-');
