import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { createUserBody, type CreateUserAnswer, type CreateUserBody } from '@notice-desk/contract/users';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useSchemaForm } from '../../../hooks/use-form.ts';
import { showApiProblem } from '../../../lib/api-error.ts';
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

// The form's values checked as the body they become.
const createUserForm = z.preprocess((values) => toBody(values as CreateUserValues), createUserBody);

type CreateUserFormProps = {
  /** The account was made; `answer.password` is set when the server generated it. */
  onCreated: (answer: CreateUserAnswer) => void;
  onCancel: () => void;
};

/** Sign-up's rules, checked here with the same schema the server holds, and again there. */
export function CreateUserForm({ onCreated, onCancel }: CreateUserFormProps) {
  const [createUser, { isLoading }] = useCreateManagedUserMutation();
  const { methods, formRef, field, handleSubmit, showFieldErrors, reset } = useSchemaForm<CreateUserValues>({
    defaultValues: { username: '', name: '', password: '', role: 'USER' },
    parts: [createUserForm],
  });
  const [name, password] = useWatch({ control: methods.control, name: ['name', 'password'] });

  const submit = handleSubmit(async (filled) => {
    try {
      onCreated(await createUser(toBody(filled)).unwrap());
      reset();
    } catch (error) {
      showApiProblem(error, {
        fields: ['username', 'name', 'password', 'role'],
        onFieldErrors: showFieldErrors,
        fallback: 'The user could not be created.',
      });
    }
  });

  return (
    <form ref={formRef} className="form-stack" onSubmit={submit} noValidate aria-label="Create user">
      <TextField label="Username" {...field('username')} autoComplete="off" spellCheck={false} />
      <TextField
        label="Name"
        {...field('name')}
        autoComplete="off"
        hint={name.trim() ? '' : 'Empty: the username is used as the name.'}
      />
      <TextField
        label="Password"
        {...field('password')}
        type="password"
        autoComplete="new-password"
        hint={password ? '' : 'Empty: a password is generated and shown once.'}
      />
      <SelectField label="Role" options={roleOptions} {...methods.register('role')} />
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
