import { useWatch } from 'react-hook-form';
import toast from 'react-hot-toast';
import { z } from 'zod';
import { changePasswordBody } from '@notice-desk/contract/auth';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useSchemaForm } from '../../../hooks/use-form.ts';
import { showApiProblem, toastApiProblem } from '../../../lib/api-error.ts';
import { useChangePasswordMutation, useEndOtherSessionsMutation } from '../api/auth-api.ts';

// The confirmation never leaves the browser, so it is not part of the contract.
const changePasswordForm = changePasswordBody.extend({
  confirmPassword: z.string().min(1, { error: 'Confirm Password is required!' }),
});

type ChangePasswordValues = { oldPassword: string; newPassword: string; confirmPassword: string };

const passwordsDiffer = ({ newPassword, confirmPassword }: Omit<ChangePasswordValues, 'oldPassword'>) =>
  newPassword !== '' && confirmPassword !== '' && newPassword !== confirmPassword;

export function ChangePasswordForm() {
  const [changePassword, { isLoading }] = useChangePasswordMutation();
  const [endOtherSessions, ending] = useEndOtherSessionsMutation();
  const { methods, formRef, field, handleSubmit, showFieldErrors, reset } =
    useSchemaForm<ChangePasswordValues>({
      defaultValues: { oldPassword: '', newPassword: '', confirmPassword: '' },
      parts: [changePasswordForm],
    });
  const [newPassword, confirmPassword] = useWatch({
    control: methods.control,
    name: ['newPassword', 'confirmPassword'],
  });
  const showMismatch = methods.formState.isSubmitted && passwordsDiffer({ newPassword, confirmPassword });

  const submit = handleSubmit(async (filled) => {
    if (passwordsDiffer(filled)) return;
    try {
      const { message } = await changePassword({
        oldPassword: filled.oldPassword,
        newPassword: filled.newPassword,
      }).unwrap();
      toast.success(message);
      reset();
    } catch (error) {
      showApiProblem(error, {
        fields: ['oldPassword', 'newPassword'],
        onFieldErrors: showFieldErrors,
        fallback: 'Failed to update password.',
      });
    }
  });

  const signOutOthers = async () => {
    try {
      toast.success((await endOtherSessions().unwrap()).message);
    } catch (error) {
      toastApiProblem(error, 'The other sessions could not be ended.');
    }
  };

  return (
    <>
      <form ref={formRef} className="form-stack" onSubmit={submit} noValidate>
        <TextField
          label="Old Password"
          {...field('oldPassword')}
          type="password"
          placeholder="Old Password"
          autoComplete="current-password"
        />
        <TextField
          label="New Password"
          {...field('newPassword')}
          type="password"
          placeholder="New Password"
          autoComplete="new-password"
        />
        <TextField
          label="Confirm New Password"
          {...field('confirmPassword')}
          type="password"
          placeholder="Confirm New Password"
          autoComplete="new-password"
        />
        <div>
          <button type="submit" className="button button-primary" disabled={isLoading}>
            Save
          </button>
        </div>
        {showMismatch && (
          <p className="form-message" role="alert">
            New password and confirm password do not match.
          </p>
        )}
      </form>
      <section className="form-stack" aria-labelledby="other-sessions-heading">
        <h2 id="other-sessions-heading">Other sessions</h2>
        <p>
          Signed in on another computer or phone, or left signed in somewhere? End every session but this one.
        </p>
        <div>
          <button
            type="button"
            className="button button-secondary"
            disabled={ending.isLoading}
            onClick={() => void signOutOthers()}
          >
            Sign out other sessions
          </button>
        </div>
      </section>
    </>
  );
}
