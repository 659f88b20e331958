import { createUserBody, type CreateUserAnswer, type CreateUserBody } from '@notice-desk/contract/users';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useForm } from '../../../hooks/use-form.ts';
import { showApiProblem } from '../../../lib/api-error.ts';
import { schemaFieldErrors } from '../../../utils/schema-field-errors.ts';
import { useCreateManagedUserMutation } from '../api/users-api.ts';

type CreateUserValues = { username: string; name: string; password: string; role: 'USER' | 'ADMIN' };

const roleOptions = [
  { value: 'USER', label: 'User' },
  { value: 'ADMIN', label: 'ADMIN' },
] as const;

/** Empty optional fields are left out: the server names the user after the username and generates a password. */
function toBody({ username, name, password, role }: CreateUserValues): CreateUserBody {
  return { username, role, ...(name.trim() && { name }), ...(password && { password }) };
}

type CreateUserFormProps = {
  /** The account was made; `answer.password` is set when the server generated it. */
  onCreated: (answer: CreateUserAnswer) => void;
  onCancel: () => void;
};

/** Sign-up's rules, checked here with the same schema the server holds, and again there. */
export function CreateUserForm({ onCreated, onCancel }: CreateUserFormProps) {
  const [createUser, { isLoading }] = useCreateManagedUserMutation();
  const form = useForm<CreateUserValues>({
    initialValues: { username: '', name: '', password: '', role: 'USER' },
    validate: (values) => schemaFieldErrors(createUserBody, toBody(values)),
  });
  const { field, values, setValue } = form;

  const submit = form.handleSubmit(async (filled) => {
    try {
      onCreated(await createUser(toBody(filled)).unwrap());
      form.reset();
    } catch (error) {
      showApiProblem(error, {
        fields: ['username', 'name', 'password', 'role'],
        onFieldErrors: form.setServerErrors,
        fallback: 'The user could not be created.',
      });
    }
  });

  return (
    <form className="form-stack" onSubmit={submit} noValidate aria-label="Create user">
      <TextField label="Username" {...field('username')} autoComplete="off" spellCheck={false} />
      <TextField
        label="Name"
        {...field('name')}
        autoComplete="off"
        hint={values.name.trim() ? '' : 'Empty: the username is used as the name.'}
      />
      <TextField
        label="Password"
        {...field('password')}
        type="password"
        autoComplete="new-password"
        hint={values.password ? '' : 'Empty: a password is generated and shown once.'}
      />
      <SelectField
        label="Role"
        name="role"
        value={values.role}
        options={roleOptions}
        onChange={(event) => setValue('role', event.target.value as CreateUserValues['role'])}
      />
      <div className="form-row">
        <button type="button" className="button button-secondary" onClick={onCancel} disabled={isLoading}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={isLoading}>
          Create user
        </button>
      </div>
    </form>
  );
}
