import { useWatch } from 'react-hook-form';
import toast from 'react-hot-toast';
import { z } from 'zod';
import { changePasswordBody } from '@notice-desk/contract/auth';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useSchemaForm } from '../../../hooks/use-form.ts';
import { showApiProblem } from '../../../lib/api-error.ts';
import { useChangePasswordMutation } from '../api/auth-api.ts';

// The confirmation never leaves the browser, so it is not part of the contract.
const changePasswordForm = changePasswordBody.extend({
  confirmPassword: z.string().min(1, { error: 'Confirm Password is required!' }),
});

type ChangePasswordValues = { oldPassword: string; newPassword: string; confirmPassword: string };

const passwordsDiffer = ({ newPassword, confirmPassword }: Omit<ChangePasswordValues, 'oldPassword'>) =>
  newPassword !== '' && confirmPassword !== '' && newPassword !== confirmPassword;

export function ChangePasswordForm() {
  const [changePassword, { isLoading }] = useChangePasswordMutation();
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

  return (
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
  );
}
