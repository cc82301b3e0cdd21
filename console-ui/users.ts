/** Users and permissions (admins only): SHOW USERS, CREATE USER, DROP USER, GRANT. */
import { command, commandArg as arg, RequestError } from './api';
import { fill, h, note } from './dom';

const PERMISSIONS = ['none', 'read', 'write', 'create', 'admin'];

export async function usersView(root: HTMLElement): Promise<void> {
  const status = h('p', { class: 'status', role: 'status' });
  const table = h('pre', { class: 'result', id: 'users', tabindex: '0', 'aria-label': 'Users' });
  const name = h('input', { id: 'user-name', placeholder: 'name', 'aria-label': 'User name', required: true });
  const password = h('input', { id: 'user-password', type: 'password', placeholder: 'password', 'aria-label': 'Password', autocomplete: 'new-password', required: true });
  const perm = h('select', { id: 'user-perm', 'aria-label': 'Permission' }, ...PERMISSIONS.map((p) => h('option', { value: p }, p)));
  const pattern = h('input', { id: 'grant-on', placeholder: 'database pattern (optional)', 'aria-label': 'Database pattern' });
  const act = (text: () => string): void => {
    Promise.resolve()
      .then(() => command(text()))
      .then(
      (out) => {
        note(status, out || 'Done.');
        return refresh();
      },
      (e: unknown) => note(status, e instanceof RequestError ? `${e.status}: ${e.message}` : String(e), true),
    );
  };
  const refresh = async (): Promise<void> => {
    table.textContent = await command('SHOW USERS');
  };
  const form = h(
    'form',
    {
      class: 'inline',
      onsubmit: (event) => {
        event.preventDefault();
        const [user, secret] = [name.value, password.value];
        act(() => `CREATE USER ${arg(user)} ${arg(secret)}`);
        password.value = '';
      },
    },
    name,
    password,
    h('button', { type: 'submit' }, 'Create user'),
  );
  const grant = h(
    'div',
    { class: 'inline' },
    perm,
    pattern,
    h('button', { onclick: () => act(() => `GRANT ${perm.value}${pattern.value ? ` ON ${arg(pattern.value)}` : ''} TO ${arg(name.value)}`) }, 'Grant to user'),
    h('button', { class: 'danger', onclick: () => confirm(`Drop user ${name.value}?`) && act(() => `DROP USER ${arg(name.value)}`) }, 'Drop user'),
  );
  fill(root, h('h2', {}, 'Users'), form, grant, status, table);
  await refresh().catch((e: unknown) => note(status, e instanceof RequestError ? `${e.status}: ${e.message}` : String(e), true));
}
