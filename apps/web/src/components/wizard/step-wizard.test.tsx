import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { creditCardSteps } from '@notice-desk/contract/credit-card';
import { noticeSteps } from '@notice-desk/contract/notice';
import { renderWithApp } from '../../testing/test-utils.tsx';
import {
  StepWizard,
  wizardValues,
  type WizardStep,
  type WizardValues,
  type StepWizardProps,
} from './step-wizard.tsx';

/** The wizard on a page of its own (/form), with a list page (/list) to cancel to. */
function renderInApp(props: Omit<StepWizardProps, 'cancelHref' | 'label'>) {
  return renderWithApp(<StepWizard label="Record" cancelHref="/list" {...props} />, {
    path: '/form',
    routes: [{ path: '/list', element: <h1>The list</h1> }],
  });
}

const input = (label: string) => screen.getByLabelText(label, { selector: 'input' }) as HTMLInputElement;
const stepText = (step: number, count: number) => screen.getByText(`Step ${step} of ${count}`);
const messageUnder = (label: string) => {
  const describedBy = input(label).getAttribute('aria-describedby');
  return describedBy ? document.getElementById(describedBy)?.textContent : undefined;
};

function renderWizard(steps: readonly WizardStep[], initialValues?: WizardValues) {
  const onSubmit = vi.fn(async (_values: WizardValues): Promise<Record<string, string> | void> => {});
  renderInApp({ steps, initialValues, onSubmit });
  return onSubmit;
}

/** Fills the current step's fields with '<key> value' and moves on. */
async function fillStepAndNext(user: UserEvent, fields: WizardStep) {
  for (const field of fields) {
    await user.click(input(field.label));
    await user.paste(`${field.key} value`);
  }
  await user.click(screen.getByRole('button', { name: 'Next' }));
}

const wizards: { wizard: string; steps: readonly WizardStep[] }[] = [
  { wizard: 'credit card', steps: creditCardSteps },
  { wizard: 'notice', steps: noticeSteps },
];

describe.each(wizards)('the $wizard wizard', ({ steps }) => {
  const count = steps.length;

  it.each(steps.map((fields, index) => ({ step: index + 1, fields })))(
    "step $step shows the spec's message under each empty required field and drops it once filled",
    async ({ step, fields }) => {
      const user = userEvent.setup();
      renderWizard(steps);
      for (const earlier of steps.slice(0, step - 1)) await fillStepAndNext(user, earlier);
      stepText(step, count);
      expect(fields.map((field) => input(field.label).name)).toEqual(fields.map((field) => field.key));
      expect(screen.queryAllByText(/is required!!$/)).toHaveLength(0);

      const action = step === count ? 'Submit' : 'Next';
      await user.click(screen.getByRole('button', { name: action }));

      stepText(step, count);
      // The step's check settles after the click's events (a busy machine once read one field early).
      await waitFor(() => {
        for (const field of fields) {
          expect(messageUnder(field.label), field.key).toBe(field.required);
          expect(input(field.label).getAttribute('aria-invalid')).toBe(field.required ? 'true' : null);
        }
      });
      const firstRequired = fields.find((field) => field.required)!;
      expect(document.activeElement).toBe(input(firstRequired.label));

      for (const field of fields) {
        await user.type(input(field.label), 'x');
        await waitFor(() => expect(messageUnder(field.label), field.key).toBeUndefined());
      }
      expect(screen.queryAllByText(/is required!!$/)).toHaveLength(0);
    },
  );

  it('Next moves on only when the current step is valid, and checks nothing on the next step', async () => {
    const user = userEvent.setup();
    renderWizard(steps);
    expect(screen.queryByRole('button', { name: 'Previous' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    stepText(1, count);

    await fillStepAndNext(user, steps[0]!);

    stepText(2, count);
    expect(screen.queryAllByText(/is required!!$/)).toHaveLength(0);
    expect(document.activeElement).toBe(input(steps[1]![0]!.label));
  });

  it('moves focus to the first field of the step it shows, on Next and on Previous', async () => {
    const user = userEvent.setup();
    renderWizard(steps);
    await fillStepAndNext(user, steps[0]!);
    expect(document.activeElement).toBe(input(steps[1]![0]!.label));

    await user.click(screen.getByRole('button', { name: 'Previous' }));

    stepText(1, count);
    expect(document.activeElement).toBe(input(steps[0]![0]!.label));
  });

  it('Previous goes back without checking and keeps the values of every step', async () => {
    const user = userEvent.setup();
    renderWizard(steps);
    await fillStepAndNext(user, steps[0]!);
    const [first, second] = steps[1]!;
    await user.type(input(first!.label), 'typed on step 2');

    await user.click(screen.getByRole('button', { name: 'Previous' }));

    stepText(1, count);
    for (const field of steps[0]!) expect(input(field.label).value).toBe(`${field.key} value`);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(input(first!.label).value).toBe('typed on step 2');
    expect(input(second!.label).value).toBe('');
    expect(screen.queryAllByText(/is required!!$/)).toHaveLength(0);
  });

  it('the last step has Previous and Submit, and Submit hands over every step’s values', async () => {
    const user = userEvent.setup();
    const onSubmit = renderWizard(steps);
    for (const fields of steps.slice(0, -1)) await fillStepAndNext(user, fields);
    expect(screen.getByRole('button', { name: 'Previous' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
    for (const field of steps.at(-1)!) {
      await user.click(input(field.label));
      await user.paste(`${field.key} value`);
    }

    await user.click(screen.getByRole('button', { name: 'Submit' }));

    const expected = Object.fromEntries(steps.flat().map((field) => [field.key, `${field.key} value`]));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith(expected));
  });
});

describe('StepWizard', () => {
  it('colours the dots: finished steps, the current step, later steps', async () => {
    const user = userEvent.setup();
    const { container } = renderInApp({ steps: creditCardSteps, onSubmit: async () => {} });
    const states = () => [...container.querySelectorAll('li')].map((dot) => dot.dataset.state);
    expect(states()).toEqual(['current', 'later', 'later']);
    await fillStepAndNext(user, creditCardSteps[0]);
    expect(states()).toEqual(['done', 'current', 'later']);
  });

  it('prefills every step from the given values', async () => {
    const user = userEvent.setup();
    const record = { _id: 'n1', createdAt: '2025-01-01', ...wizardValues(noticeSteps) };
    for (const field of noticeSteps.flat()) record[field.key as keyof typeof record] = `old ${field.key}`;
    const onSubmit = renderWizard(noticeSteps, wizardValues(noticeSteps, record));
    expect(input('Loan No.').value).toBe('old loanNo');

    for (let step = 1; step < noticeSteps.length; step += 1) {
      await user.click(screen.getByRole('button', { name: 'Next' }));
    }
    await user.clear(input('Remark'));
    await user.type(input('Remark'), 'new remark');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const sent = onSubmit.mock.calls[0]![0];
    expect(sent.remark).toBe('new remark');
    expect(sent.city).toBe('old city');
    expect(sent).not.toHaveProperty('_id');
  });

  it("shows a server's field messages on the step holding the first of them", async () => {
    const user = userEvent.setup();
    const filled = wizardValues(noticeSteps, {});
    for (const key of Object.keys(filled)) filled[key] = 'x';
    const onSubmit = vi.fn(async () => ({
      clmMob: 'CLM Mobile Number is required!!',
      city: 'City is required!!',
    }));
    renderInApp({ steps: noticeSteps, initialValues: filled, onSubmit });
    for (let step = 1; step < noticeSteps.length; step += 1) {
      await user.click(screen.getByRole('button', { name: 'Next' }));
    }

    await user.click(screen.getByRole('button', { name: 'Submit' }));

    await waitFor(() => stepText(1, 4));
    expect(messageUnder('Mobile Clm')).toBe('CLM Mobile Number is required!!');
    expect(document.activeElement).toBe(input('Mobile Clm'));
    await user.type(input('Mobile Clm'), 'y');
    expect(messageUnder('Mobile Clm')).toBeUndefined();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(messageUnder('01 City')).toBe('City is required!!');
  });

  it('cancels straight back to the list when nothing was typed', async () => {
    const user = userEvent.setup();
    const { router } = renderInApp({ steps: creditCardSteps, onSubmit: async () => {} });
    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { name: 'The list' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/list');
  });

  it('asks before leaving with unsaved changes: Stay keeps what was typed, Leave goes', async () => {
    const user = userEvent.setup();
    const { router } = renderInApp({ steps: creditCardSteps, onSubmit: async () => {} });
    await user.type(input('Hub'), 'North');

    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: /Leave this form\?/ });
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/form');
    expect(input('Hub').value).toBe('North');

    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    await router.navigate('/list');
    await user.click(
      within(await screen.findByRole('dialog', { name: /Leave this form\?/ })).getByRole('button', {
        name: 'Leave',
      }),
    );
    expect(await screen.findByRole('heading', { name: 'The list' })).toBeTruthy();
  });

  it('lets a successful save leave without asking', async () => {
    const user = userEvent.setup();
    const view: { router?: ReturnType<typeof renderInApp>['router'] } = {};
    view.router = renderInApp({
      steps: [creditCardSteps[0]!],
      onSubmit: async () => view.router!.navigate('/list'),
    }).router;
    for (const field of creditCardSteps[0]!) await user.type(input(field.label), 'x');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('heading', { name: 'The list' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('offers a date picker beside a date field that writes the day.month.year text', async () => {
    const user = userEvent.setup();
    renderInApp({
      steps: [creditCardSteps[1]!],
      onSubmit: async () => {},
      dateFields: new Set(['campDate']),
    });
    const picker = screen.getByLabelText('Camp Date: pick a date') as HTMLInputElement;
    expect(picker.type).toBe('date');
    await user.type(input('Camp Date'), '12.05.2024');
    expect(picker.value).toBe('2024-05-12');

    fireEvent.change(picker, { target: { value: '2025-01-31' } });
    expect(input('Camp Date').value).toBe('31.01.2025');
    // Anything typed is kept as typed (the spec has no date check); the picker then shows empty.
    await user.clear(input('Camp Date'));
    await user.type(input('Camp Date'), 'after Diwali');
    expect(input('Camp Date').value).toBe('after Diwali');
    expect(picker.value).toBe('');
  });
});

describe('a wizard that keeps its draft', () => {
  const draftKey = 'draft:u1:credit-card:new';
  const first = creditCardSteps[0]![0]!;

  it('saves what is typed, restores it on the next visit, and forgets it when discarded', async () => {
    localStorage.removeItem(draftKey);
    const user = userEvent.setup();
    const onSubmit = vi.fn(async () => {});
    const visit = renderInApp({ steps: creditCardSteps, onSubmit, draftKey });
    await user.click(input(first.label));
    await user.paste('typed before the session ended');
    expect(JSON.parse(localStorage.getItem(draftKey)!)).toMatchObject({
      [first.key]: 'typed before the session ended',
    });
    visit.unmount();

    renderInApp({ steps: creditCardSteps, onSubmit, draftKey });
    expect(screen.getByRole('status').textContent).toContain('Your unsaved draft is restored.');
    expect(input(first.label).value).toBe('typed before the session ended');
    await user.click(screen.getByRole('button', { name: 'Discard draft' }));
    expect(input(first.label).value).toBe('');
    expect(localStorage.getItem(draftKey)).toBeNull();
  });
});
