/** The console's shell: login, the tabs, the hash router (#/, #/db/..., #/doc/..., #/query, #/commands, #/users), themes. */
import { loggedIn, login, logout, me, RequestError, type Me } from './api';
import { commandsView } from './commands';
import { databasesView, databaseView, documentPage } from './databases';
import { fill, h, note } from './dom';
import { queryView } from './query';
import { usersView } from './users';

const THEME_KEY = 'xmldb-console-theme';
const app = document.getElementById('app')!;
let user: Me | undefined;

function applyTheme(theme: string | null): void {
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

function toggleTheme(): void {
  const current = document.documentElement.dataset.theme ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  const next = current === 'dark' ? 'light' : 'dark';
  localStorage.setItem(THEME_KEY, next);
  applyTheme(next);
}

function loginForm(message = ''): void {
  const status = h('p', { class: 'status', role: 'alert' });
  const name = h('input', { id: 'login-user', autocomplete: 'username', required: true });
  const password = h('input', { id: 'login-password', type: 'password', autocomplete: 'current-password', required: true });
  const form = h(
    'form',
    {
      class: 'login',
      onsubmit: (event) => {
        event.preventDefault();
        login(name.value, password.value).then(
          (who) => {
            user = who;
            password.value = '';
            shell();
          },
          (e: unknown) => note(status, e instanceof RequestError ? e.message : String(e), true),
        );
      },
    },
    h('h1', {}, 'xmldb-rest console'),
    h('label', { for: 'login-user' }, 'User'),
    name,
    h('label', { for: 'login-password' }, 'Password'),
    password,
    h('button', { type: 'submit', class: 'primary', id: 'login-submit' }, 'Log in'),
    status,
  );
  fill(app, form);
  if (message) note(status, message, true);
  name.focus();
}

const main = h('main', { id: 'main', tabindex: '-1' });

function shell(): void {
  const tabs: Array<[string, string]> = [
    ['#/', 'Databases'],
    ['#/query', 'Query'],
    ['#/commands', 'Commands'],
  ];
  if (user?.perm === 'admin') tabs.push(['#/users', 'Users']);
  const nav = h('nav', { class: 'tabs', 'aria-label': 'Sections' }, ...tabs.map(([href, label]) => h('a', { href, class: 'tab', id: `tab-${label.toLowerCase()}` }, label)));
  const header = h(
    'header',
    {},
    h('a', { href: '#/main', class: 'skip' }, 'Skip to content'),
    h('strong', {}, 'xmldb-rest'),
    nav,
    h('span', { class: 'who', id: 'who' }, `${user?.name ?? ''} (${user?.perm ?? ''})`),
    h('button', { onclick: toggleTheme, 'aria-label': 'Toggle light and dark theme' }, '◐'),
    h(
      'button',
      {
        id: 'logout',
        onclick: () => {
          logout();
          user = undefined;
          loginForm();
        },
      },
      'Log out',
    ),
  );
  fill(app, header, main);
  route();
}

function route(): void {
  if (!user) return;
  const hash = location.hash || '#/';
  if (hash === '#/main') {
    main.focus();
    return;
  }
  const parts = hash.slice(2).split('/').filter(Boolean).map(decodeURIComponent);
  for (const tab of document.querySelectorAll('.tabs a')) {
    const href = tab.getAttribute('href') ?? '';
    const active = href === '#/' ? parts.length === 0 || parts[0] === 'db' || parts[0] === 'doc' : hash.startsWith(href);
    if (active) tab.setAttribute('aria-current', 'page');
    else tab.removeAttribute('aria-current');
  }
  switch (parts[0]) {
    case undefined:
      void databasesView(main);
      break;
    case 'db':
      void databaseView(main, parts[1], parts.slice(2));
      break;
    case 'doc':
      void documentPage(main, parts.slice(1));
      break;
    case 'query':
      queryView(main);
      break;
    case 'commands':
      commandsView(main);
      break;
    case 'users':
      if (user.perm === 'admin') void usersView(main);
      else fill(main, h('p', { class: 'error' }, 'Users are managed by admins.'));
      break;
    default:
      fill(main, h('p', {}, 'No such page.'));
  }
}

applyTheme(localStorage.getItem(THEME_KEY));
window.addEventListener('hashchange', route);
window.addEventListener('console-logout', () => {
  user = undefined;
  loginForm('Your login is no longer accepted; log in again.');
});
if (loggedIn()) {
  me().then(
    (who) => {
      user = who;
      shell();
    },
    () => loginForm(),
  );
} else {
  loginForm();
}
