import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { languageByCode, languages } from '@notice-desk/contract/languages';
import type { TemplateLanguage } from '@notice-desk/contract/templates';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { showApiProblem } from '../../../lib/api-error.ts';
import styles from './template-editor.module.css';

type TemplateLanguagesProps = {
  template: TemplateLanguage & { _id: string };
  /** Where a template of this screen is edited. */
  hrefOf: (templateId: string) => string;
  /** Adds a variant in a language (its code) to this template; answers the new variant. */
  onAdd: (language: string) => Promise<{ _id: string }>;
  adding: boolean;
};

const nameOf = (code: string | null) => languageByCode(code)?.name ?? code ?? '';

/**
 * A default template's language variants, each a link to edit it, and a form to add one (it starts as a
 * copy of the default and opens in the same editor); on a variant, its language and the way back.
 */
export function TemplateLanguages({ template, hrefOf, onAdd, adding }: TemplateLanguagesProps) {
  const navigate = useNavigate();
  const [language, setLanguage] = useState('');
  const [error, setError] = useState<string | undefined>();

  if (template.variantOf) {
    return (
      <section aria-label="Language">
        <h2 className={styles.asideTitle}>Language</h2>
        <p className={styles.hint}>
          The {nameOf(template.language)} variant: records whose language is {nameOf(template.language)} print
          it.
        </p>
        <Link to={hrefOf(template.variantOf)}>Edit the default template</Link>
      </section>
    );
  }

  const taken = new Set(template.variants.map((variant) => variant.language));
  const choices = languages.filter((candidate) => !taken.has(candidate.code));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!language) return setError('Choose a language.');
    try {
      const added = await onAdd(language);
      toast.success(`${nameOf(language)} added.`);
      void navigate(hrefOf(added._id));
    } catch (problem) {
      showApiProblem(problem, {
        fields: ['language'],
        onFieldErrors: (errors) => setError(errors.language),
        fallback: 'The language could not be added.',
      });
    }
  };

  return (
    <section aria-label="Languages">
      <h2 className={styles.asideTitle}>Languages</h2>
      <p className={styles.hint}>A record prints the variant in its Language, else this default template.</p>
      {template.variants.length > 0 ? (
        <ul className={styles.languageList}>
          {template.variants.map((variant) => (
            <li key={variant._id}>
              <Link to={hrefOf(variant._id)}>{variant.name}</Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className={styles.hint}>No language variants yet.</p>
      )}
      <form className={styles.languageForm} onSubmit={(event) => void submit(event)} noValidate>
        <SelectField
          label="Add a language"
          name="language"
          value={language}
          aria-invalid={error ? true : undefined}
          onChange={(event) => {
            setLanguage(event.target.value);
            setError(undefined);
          }}
          options={[
            { value: '', label: 'Choose a language' },
            ...choices.map((choice) => ({ value: choice.code, label: `${choice.name} (${choice.native})` })),
          ]}
        />
        {error && (
          <p className={styles.error} role="alert">
            {error}
          </p>
        )}
        <div>
          <button type="submit" className="button button-secondary" disabled={adding}>
            Add language
          </button>
        </div>
      </form>
    </section>
  );
}
