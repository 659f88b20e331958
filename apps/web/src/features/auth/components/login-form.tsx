import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { loginBody } from '@notice-desk/contract/auth';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { paths } from '../../../config/paths.ts';
import { useForm } from '../../../hooks/use-form.ts';
import { showApiProblem } from '../../../lib/api-error.ts';
import { signedIn } from '../../../lib/session.ts';
import { useAppDispatch } from '../../../lib/store.ts';
import { schemaFieldErrors } from '../../../utils/schema-field-errors.ts';
import { useLoginMutation } from '../api/auth-api.ts';

export function LoginForm({ onSuccess }: { onSuccess: () => void }) {
  const dispatch = useAppDispatch();
  const [login, { isLoading }] = useLoginMutation();
  const form = useForm<{ username: string; password: string; remember: boolean }>({
    initialValues: { username: '', password: '', remember: false },
    validate: (values) => schemaFieldErrors(loginBody, values),
  });
  const { values, setValue, field } = form;

  const submit = form.handleSubmit(async (filled) => {
    try {
      const { token, user } = await login(loginBody.parse(filled)).unwrap();
      dispatch(signedIn({ accessToken: token, user }));
      toast.success('User Login Successfully');
      onSuccess();
    } catch (error) {
      showApiProblem(error, {
        fields: ['username', 'password'],
        onFieldErrors: form.setServerErrors,
        fallback: 'Login failed. Please try again.',
      });
    }
  });

  return (
    <>
      <form className="form-stack" onSubmit={submit} noValidate>
        <TextField label="Username" {...field('username')} autoComplete="username" />
        <TextField label="Password" {...field('password')} type="password" autoComplete="current-password" />
        <div className="form-row">
          <CheckboxField
            label="Remeber this Device"
            name="remember"
            checked={values.remember}
            onChange={(event) => setValue('remember', event.target.checked)}
          />
          <Link to={paths.home.getHref()}>Forgot Password?</Link>
        </div>
        <button type="submit" className="button button-primary button-block" disabled={isLoading}>
          Login
        </button>
      </form>
      <p className="form-footer">
        Don&apos;t have an account? <Link to={paths.auth.signUp.getHref()}>Sign Up</Link>
      </p>
    </>
  );
}
