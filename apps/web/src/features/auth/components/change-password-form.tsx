import toast from 'react-hot-toast';
import { z } from 'zod';
import { changePasswordBody } from '@notice-desk/contract/auth';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useForm } from '../../../hooks/use-form.ts';
import { showApiProblem } from '../../../lib/api-error.ts';
import { schemaFieldErrors } from '../../../utils/schema-field-errors.ts';
import { useChangePasswordMutation } from '../api/auth-api.ts';

// The confirmation never leaves the browser, so it is not part of the contract.
const changePasswordForm = changePasswordBody.extend({
  confirmPassword: z.string().min(1, { error: 'Confirm Password is required!' }),
});

type ChangePasswordValues = { oldPassword: string; newPassword: string; confirmPassword: string };

const passwordsDiffer = ({ newPassword, confirmPassword }: ChangePasswordValues) =>
  newPassword !== '' && confirmPassword !== '' && newPassword !== confirmPassword;

export function ChangePasswordForm() {
  const [changePassword, { isLoading }] = useChangePasswordMutation();
  const form = useForm<ChangePasswordValues>({
    initialValues: { oldPassword: '', newPassword: '', confirmPassword: '' },
    validate: (values) => schemaFieldErrors(changePasswordForm, values),
  });
  const { values, field } = form;
  const showMismatch = form.submitted && passwordsDiffer(values);

  const submit = form.handleSubmit(async (filled) => {
    if (passwordsDiffer(filled)) return;
    try {
      const { message } = await changePassword({
        oldPassword: filled.oldPassword,
        newPassword: filled.newPassword,
      }).unwrap();
      toast.success(message);
      form.reset();
    } catch (error) {
      showApiProblem(error, {
        fields: ['oldPassword', 'newPassword'],
        onFieldErrors: form.setServerErrors,
        fallback: 'Failed to update password.',
      });
    }
  });

  return (
    <form className="form-stack" onSubmit={submit} noValidate>
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
