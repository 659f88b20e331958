import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { registerBody } from '@notice-desk/contract/auth';
import { TextField } from '../../../components/ui/text-field.tsx';
import { paths } from '../../../config/paths.ts';
import { useSchemaForm } from '../../../hooks/use-form.ts';
import { showApiProblem } from '../../../lib/api-error.ts';
import { useRegisterMutation } from '../api/auth-api.ts';

export function SignUpForm({ onSuccess }: { onSuccess: () => void }) {
  const [register, { isLoading }] = useRegisterMutation();
  const { formRef, field, handleSubmit, showFieldErrors } = useSchemaForm({
    defaultValues: { name: '', username: '', password: '' },
    parts: [registerBody],
  });

  const submit = handleSubmit(async (filled) => {
    try {
      await register(registerBody.parse(filled)).unwrap();
      toast.success('User Created Successfully!');
      onSuccess();
    } catch (error) {
      showApiProblem(error, {
        fields: ['name', 'username', 'password'],
        onFieldErrors: showFieldErrors,
        fallback: 'Sign up failed. Please try again.',
      });
    }
  });

  return (
    <>
      <form ref={formRef} className="form-stack" onSubmit={submit} noValidate>
        <TextField label="Name" {...field('name')} autoComplete="name" />
        <TextField label="Username" {...field('username')} autoComplete="username" />
        <TextField label="Password" {...field('password')} type="password" autoComplete="new-password" />
        <button type="submit" className="button button-primary button-block" disabled={isLoading}>
          Sign Up
        </button>
      </form>
      <p className="form-footer">
        Already have an account? <Link to={paths.auth.login.getHref()}>Login</Link>
      </p>
    </>
  );
}
