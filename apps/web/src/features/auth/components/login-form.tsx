import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { loginBody } from '@notice-desk/contract/auth';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { paths } from '../../../config/paths.ts';
import { useSchemaForm } from '../../../hooks/use-form.ts';
import { showApiProblem } from '../../../lib/api-error.ts';
import { signedIn, type Session } from '../../../lib/session.ts';
import { useAppDispatch } from '../../../lib/store.ts';
import { useLoginMutation } from '../api/auth-api.ts';

type LoginFormProps = {
  onSuccess: () => void;
  /**
   * Signing in again over a screen (the sign-in dialog): the caller takes the new session, and the
   * form has no links away from the screen, whose work would be lost.
   */
  onSignedIn?: (session: Session) => void;
};

export function LoginForm({ onSuccess, onSignedIn }: LoginFormProps) {
  const dispatch = useAppDispatch();
  const [login, { isLoading }] = useLoginMutation();
  const { methods, formRef, field, handleSubmit, showFieldErrors } = useSchemaForm<{
    username: string;
    password: string;
    remember: boolean;
  }>({
    defaultValues: { username: '', password: '', remember: false },
    parts: [loginBody],
  });

  const submit = handleSubmit(async (filled) => {
    try {
      const { token, user } = await login(loginBody.parse(filled)).unwrap();
      if (onSignedIn) onSignedIn({ accessToken: token, user });
      else dispatch(signedIn({ accessToken: token, user }));
      toast.success('User Login Successfully');
      onSuccess();
    } catch (error) {
      showApiProblem(error, {
        fields: ['username', 'password'],
        onFieldErrors: showFieldErrors,
        fallback: 'Login failed. Please try again.',
      });
    }
  });

  return (
    <>
      <form ref={formRef} className="form-stack" onSubmit={submit} noValidate>
        <TextField label="Username" {...field('username')} autoComplete="username" />
        <TextField label="Password" {...field('password')} type="password" autoComplete="current-password" />
        <div className="form-row">
          <CheckboxField label="Remeber this Device" {...methods.register('remember')} />
          {!onSignedIn && <Link to={paths.home.getHref()}>Forgot Password?</Link>}
        </div>
        <button type="submit" className="button button-primary button-block" disabled={isLoading}>
          Login
        </button>
      </form>
      {!onSignedIn && (
        <p className="form-footer">
          Don&apos;t have an account? <Link to={paths.auth.signUp.getHref()}>Sign Up</Link>
        </p>
      )}
    </>
  );
}
