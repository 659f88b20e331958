import { emailTemplateUpdate, whatsappTemplateUpdate } from '@notice-desk/contract/templates';
import type { z } from 'zod';
import { paths } from '../../../config/paths.ts';
import {
  useAddEmailTemplateVariantMutation,
  useAddWhatsappTemplateVariantMutation,
  useUpdateEmailTemplateMutation,
  useUpdateWhatsappTemplateMutation,
} from '../api/templates-api.ts';

type Unwrappable<T> = { unwrap: () => Promise<T> };

/**
 * What tells the e-mail (PDF Editor) and WhatsApp template forms apart: the field they edit, the
 * contract's schema for it, the channel's update and add-variant calls, and where a template is edited.
 */
export type TemplateChannel<TField extends 'html' | 'value'> = {
  field: TField;
  schema: z.ZodType;
  useUpdate: () => readonly [
    (args: {
      id: string;
      body: { key: string; name: string } & Record<TField, string>;
    }) => Unwrappable<unknown>,
    { isLoading: boolean },
  ];
  useAddVariant: () => readonly [
    (args: { id: string; language: string }) => Unwrappable<{ _id: string }>,
    { isLoading: boolean },
  ];
  editHref: (id: string) => string;
};

/** The e-mail (PDF Editor) templates' body, edited as HTML, and the WhatsApp templates' message text. */
export const templateChannels: { email: TemplateChannel<'html'>; whatsapp: TemplateChannel<'value'> } = {
  email: {
    field: 'html',
    schema: emailTemplateUpdate.pick({ html: true }),
    useUpdate: useUpdateEmailTemplateMutation,
    useAddVariant: useAddEmailTemplateVariantMutation,
    editHref: paths.templates.editEmail.getHref,
  },
  whatsapp: {
    field: 'value',
    schema: whatsappTemplateUpdate.pick({ value: true }),
    useUpdate: useUpdateWhatsappTemplateMutation,
    useAddVariant: useAddWhatsappTemplateVariantMutation,
    editHref: paths.templates.editWhatsapp.getHref,
  },
};
