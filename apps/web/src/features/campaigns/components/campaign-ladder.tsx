import { useFieldArray } from 'react-hook-form';
import toast from 'react-hot-toast';
import { z } from 'zod';
import {
  ladderBody,
  ladderChannels,
  ladderChannelWords,
  ladderConditions,
  stepWords,
  type Ladder,
  type LadderBody,
} from '@notice-desk/contract/fallback';
import { fieldMessages, useSchemaForm, type FieldMessages } from '../../../hooks/use-form.ts';
import { readApiProblem } from '../../../lib/api-error.ts';
import { useGetCampaignLadderQuery, useSetCampaignLadderMutation } from '../api/ladder-api.ts';
import styles from './campaign-detail.module.css';

type StepValues = { channel: string; after: string; unless: string };
type LadderValues = { channels: string[]; steps: StepValues[] };

const conditionWords: Record<string, string> = {
  '': 'always',
  delivered: 'unless delivered on any channel',
  read: 'unless read',
  opened: 'unless the notice page was opened',
  acknowledged: 'unless the notice was acknowledged',
};

const valuesOf = (ladder: Ladder | null): LadderValues => ({
  channels: ladder?.channels ?? ['email', 'whatsapp'],
  steps: (ladder?.steps ?? []).map((s) => ({
    channel: s.channel,
    after: String(s.after),
    unless: s.unless ?? '',
  })),
});

/** The form's values as the body they become; text that is no number goes as it is, so the message names it. */
function toBody(values: LadderValues): LadderBody {
  return {
    channels: values.channels as LadderBody['channels'],
    steps: values.steps.map((s) => ({
      channel: s.channel as LadderBody['steps'][number]['channel'],
      after: (/^\d+$/.test(s.after.trim()) ? Number(s.after) : s.after) as number,
      ...(s.unless ? { unless: s.unless as NonNullable<LadderBody['steps'][number]['unless']> } : {}),
    })),
  };
}

// The form's values checked as the body they become, the typed hours as numbers.
const ladderForm = z.preprocess((values) => toBody(values as LadderValues), ladderBody);

/**
 * "Channels and fallback": the campaign's channels and its ladder of steps (SMS if nothing is delivered
 * within 24 hours, Speed Post if the notice is not opened within 7 days), to view and change. Checked
 * with the contract's schema before it is sent; the server's messages name the same fields, and focus
 * goes to the first field to fix.
 */
export function CampaignLadder({ campaignId }: { campaignId: string }) {
  const { data } = useGetCampaignLadderQuery({ id: campaignId });
  if (!data) return null;
  return (
    <section className="panel" aria-labelledby={`ladder-${campaignId}`}>
      <h3 id={`ladder-${campaignId}`}>Channels and fallback</h3>
      <p className={styles.notServiceable}>
        {data.ladder
          ? `${data.source === 'campaign' ? 'This campaign’s own ladder' : 'The record kind’s default ladder'}: ${
              data.ladder.steps.map(stepWords).join('; ') || 'no steps'
            }.`
          : 'No fallback ladder: no step runs after the first send.'}
      </p>
      <details>
        <summary>Change the channels and fallback</summary>
        <LadderForm key={data.updatedAt ?? 'none'} campaignId={campaignId} ladder={data.ladder} />
      </details>
    </section>
  );
}

function LadderForm({ campaignId, ladder }: { campaignId: string; ladder: Ladder | null }) {
  const [save, { isLoading }] = useSetCampaignLadderMutation();
  const { methods, formRef, handleSubmit, showFieldErrors } = useSchemaForm<LadderValues>({
    defaultValues: valuesOf(ladder),
    parts: [ladderForm],
  });
  const { register, control, formState, setError } = methods;
  const steps = useFieldArray({ control, name: 'steps' });
  const submit = handleSubmit(async (values) => {
    try {
      await save({ id: campaignId, body: toBody(values) }).unwrap();
      toast.success('Updated Successfully.');
    } catch (error) {
      const { fieldErrors, message } = readApiProblem(error);
      if (Object.keys(fieldErrors).length > 0) showFieldErrors(fieldErrors as FieldMessages<LadderValues>);
      // The form's own message, which the next submit clears.
      else
        setError('root', { type: 'server', message: message ?? 'The ladder could not be saved. Try again.' });
    }
  });
  /** Messages by field ('steps.1.after'), from the schema or the server; the form's own as 'ladder'. */
  const problemList = [
    ...fieldMessages(formState.errors),
    ...(formState.errors.root?.message ? [['ladder', formState.errors.root.message] as const] : []),
  ];
  const problems: Record<string, string> = Object.fromEntries(problemList);
  const problem = (name: string) =>
    problems[name] ? (
      <span className={styles.notServiceable} id={`${campaignId}-${name}-problem`}>
        {problems[name]}
      </span>
    ) : null;
  const invalid = (name: string) =>
    problems[name] ? { 'aria-invalid': true, 'aria-describedby': `${campaignId}-${name}-problem` } : {};
  return (
    <form
      ref={formRef}
      className="form-stack"
      onSubmit={submit}
      noValidate
      aria-label="Channels and fallback"
    >
      {problemList.length > 0 && (
        <ul role="alert">
          {problemList.map(([field, message]) => (
            <li key={field}>
              {field}: {message}
            </li>
          ))}
        </ul>
      )}
      <fieldset>
        <legend>Channels</legend>
        {ladderChannels.map((channel) => (
          <label key={channel}>
            <input type="checkbox" value={channel} {...register('channels')} /> {ladderChannelWords[channel]}
          </label>
        ))}
        {problem('channels')}
      </fieldset>
      <ol>
        {steps.fields.map((step, i) => (
          <li key={step.id}>
            <fieldset>
              <legend>Step {i + 1}</legend>
              <label htmlFor={`${campaignId}-step-${i}-channel`}>Channel</label>
              <select
                id={`${campaignId}-step-${i}-channel`}
                {...register(`steps.${i}.channel`)}
                {...invalid(`steps.${i}.channel`)}
              >
                {ladderChannels.map((channel) => (
                  <option key={channel} value={channel}>
                    {ladderChannelWords[channel]}
                  </option>
                ))}
              </select>
              {problem(`steps.${i}.channel`)}
              <label htmlFor={`${campaignId}-step-${i}-after`}>After (hours)</label>
              <input
                id={`${campaignId}-step-${i}-after`}
                inputMode="numeric"
                {...register(`steps.${i}.after`)}
                {...invalid(`steps.${i}.after`)}
              />
              {problem(`steps.${i}.after`)}
              <label htmlFor={`${campaignId}-step-${i}-unless`}>When</label>
              <select id={`${campaignId}-step-${i}-unless`} {...register(`steps.${i}.unless`)}>
                {['', ...ladderConditions].map((condition) => (
                  <option key={condition} value={condition}>
                    {conditionWords[condition]}
                  </option>
                ))}
              </select>
              <button type="button" className="button button-secondary" onClick={() => steps.remove(i)}>
                Remove step {i + 1}
              </button>
            </fieldset>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="button button-secondary"
        onClick={() => steps.append({ channel: 'sms', after: '24', unless: 'delivered' })}
      >
        Add a step
      </button>
      <button type="submit" className="button" disabled={isLoading}>
        Save
      </button>
    </form>
  );
}
