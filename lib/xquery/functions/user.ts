/**
 * BaseX's User Module (docs.basex.org, "User Functions"), as saxon-js extension functions in
 * namespace `http://basex.org/modules/user` (prefix `user`):
 *
 *   user:current() as xs:string
 *   user:list() as xs:string*                               visible users, sorted by name
 *   user:list-details($name as xs:string? := ()) as element(user)*
 *   user:exists($name as xs:string) as xs:boolean
 *   user:create($name, $password, $permissions as xs:string* := 'none', $patterns as xs:string* := '', $info := ())
 *   user:drop($name, $patterns as xs:string* := ())          the user, or its permissions on $patterns
 *   user:alter($name, $newname)
 *   user:password($name, $password)
 *   user:grant($name, $permissions as xs:string*, $patterns as xs:string* := '', $info := ())
 *
 * The query runs in the query host, which holds no user data: a run is given its account
 * (update/user-changes.ts, functions/support/account.ts), the users it may see without their
 * password hashes: every user for an admin, only itself otherwise. A user another user may not
 * see does not exist for them (user:exists is false, user:list-details `user:unknown`), as a
 * database they may not read does not. `<user name=".." permission="..">` lists a user's
 * permissions on database patterns as `<database pattern=".." permission=".."/>`; unlike
 * BaseX's, it carries no `<password>` element.
 *
 * The updating functions are checked here (names, permissions, patterns, the `admin` user) and
 * become pending updates (update/primitives.ts `dbPending`): the server applies them after the
 * query through its user store, and only for an admin (a user may change its own password), with
 * its own rules (operations/query-users.ts). In $permissions and $patterns, the n-th permission
 * applies to the n-th pattern, '' naming the global permission; permissions on patterns are
 * none, read or write. `$info` is accepted and ignored: this server keeps no user info.
 * Errors, with BaseX's codes: user:name, user:unknown, user:admin, user:equal, user:permission,
 * user:local, user:pattern.
 */
import { MAX_PATTERN_LENGTH } from '../../glob';
import { isValidDatabaseName } from '../../store';
import { isValidUserName } from '../../users/user-store';
import { parsePermission, type Permission } from '../../users/permissions';
import { castString, registerFunctions, stringValue, type XdmValue } from '../../saxon';
import { escapeAttribute } from '../../xml/escape';
import { activeAccount } from './support/account';
import { moduleError } from './support/option-maps';
import { MODULE_NAMESPACES } from '../module-namespaces';
import { elementFromXml } from './support/elements';
import { dbPending } from '../update/primitives';
import type { PatternPermission, UserChange, VisibleUser } from '../update/user-changes';

const USER_NS = MODULE_NAMESPACES.user;

const error = (name: string, message: string): Error => moduleError('user', name, message);
const strings = (v: XdmValue | undefined): string[] => (v ?? []).map(String);

function validName(name: string): string {
  if (!isValidUserName(name)) throw error('name', `Invalid user name: '${name}'.`);
  return name;
}

/** A user the running query may see (user:unknown otherwise). */
function visible(name: string): VisibleUser {
  const user = activeAccount().users.find((u) => u.name === validName(name));
  if (!user) throw error('unknown', `User '${name}' does not exist.`);
  return user;
}

/** A user other than `admin` that the query may see. */
function modifiable(name: string): VisibleUser {
  if (name === 'admin') throw error('admin', "User 'admin' cannot be modified.");
  return visible(name);
}

/** '' (global), or a database name with wildcards (`*`, `?`) of bounded length (BaseX: Databases.validPattern). */
function validPattern(pattern: string): string {
  const valid = pattern === '' || (pattern.length <= MAX_PATTERN_LENGTH && isValidDatabaseName(pattern.replace(/[*?]/g, 'x')));
  if (!valid) throw error('pattern', `Invalid database pattern: '${pattern}'.`);
  return pattern;
}

/** $permissions paired with $patterns (see the file comment). */
function permissions(permArg: XdmValue | undefined, patternArg: XdmValue | undefined): PatternPermission[] {
  const perms = permArg === undefined ? ['none'] : strings(permArg);
  const patterns = patternArg === undefined ? [''] : strings(patternArg);
  if (perms.length !== patterns.length) {
    throw error('permission', `Number of permissions and patterns differs: ${perms.length} vs. ${patterns.length}.`);
  }
  return perms.map((text, i) => {
    const perm = parsePermission(text);
    if (perm === undefined || perm !== text.toLowerCase()) throw error('permission', `Invalid permission: '${text}'.`);
    const pattern = validPattern(patterns[i]);
    if (pattern !== '' && !isLocal(perm)) throw error('local', "Local permission can only be 'none', 'read' or 'write'.");
    return { pattern, perm };
  });
}

const isLocal = (perm: Permission): boolean => perm === 'none' || perm === 'read' || perm === 'write';

const pending = (change: UserChange): XdmValue => [dbPending([change])];

// ------------------------------------------------------------------------------ reading

function names(): XdmValue {
  return [...activeAccount().users]
    .map((u) => u.name)
    .sort()
    .map(stringValue);
}

function details([name]: XdmValue[]): XdmValue {
  const users = name && name.length > 0 ? [visible(String(name[0]))] : [...activeAccount().users].sort((a, b) => (a.name < b.name ? -1 : 1));
  return users.map((u) => {
    const grants = u.grants.map((g) => `<database pattern="${escapeAttribute(g.pattern)}" permission="${g.perm}"/>`).join('');
    const xml = `<user name="${escapeAttribute(u.name)}" permission="${u.perm}">${grants}</user>`;
    return elementFromXml(xml);
  });
}

function exists([name]: XdmValue[]): XdmValue {
  const n = validName(String(name[0]));
  return [castString(String(activeAccount().users.some((u) => u.name === n)), 'boolean')];
}

// ------------------------------------------------------------------------------ updating

function create([name, password, perms, patterns]: XdmValue[]): XdmValue {
  const n = validName(String(name[0]));
  if (n === 'admin') throw error('admin', "User 'admin' cannot be modified.");
  return pending({ op: 'user', action: 'create', name: n, password: String(password[0]), permissions: permissions(perms, patterns) });
}

function drop([name, patterns]: XdmValue[]): XdmValue {
  const n = modifiable(String(name[0])).name;
  return pending({ op: 'user', action: 'drop', name: n, patterns: strings(patterns).map(validPattern) });
}

function alter([name, newName]: XdmValue[]): XdmValue {
  const n = modifiable(String(name[0])).name;
  const to = validName(String(newName[0]));
  if (to === n) throw error('equal', `Name of old and new user is equal: ${n}.`);
  if (to === 'admin') throw error('admin', "User 'admin' cannot be modified.");
  return pending({ op: 'user', action: 'alter', name: n, newName: to });
}

function password([name, pw]: XdmValue[]): XdmValue {
  return pending({ op: 'user', action: 'password', name: visible(String(name[0])).name, password: String(pw[0]) });
}

function grant([name, perms, patterns]: XdmValue[]): XdmValue {
  const n = modifiable(String(name[0])).name;
  return pending({ op: 'user', action: 'grant', name: n, permissions: permissions(perms, patterns) });
}

/** Registers the user: functions with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerUserFunctions(): void {
  registerFunctions(USER_NS, {
    current: { sig: '1F r[1AS] a[]', arity: [0], impl: () => [stringValue(activeAccount().name)] },
    list: { sig: '1F r[*AS] a[]', arity: [0], impl: names },
    'list-details': { sig: '1F r[*N] a[?AS]', arity: [0, 1], impl: details },
    exists: { sig: '1F r[1AB] a[1AS]', impl: exists },
    create: { sig: '1F r[*] a[1AS,1AS,*AS,*AS,*]', arity: [2, 3, 4, 5], impl: create },
    drop: { sig: '1F r[*] a[1AS,*AS]', arity: [1, 2], impl: drop },
    alter: { sig: '1F r[*] a[1AS,1AS]', impl: alter },
    password: { sig: '1F r[*] a[1AS,1AS]', impl: password },
    grant: { sig: '1F r[*] a[1AS,*AS,*AS,*]', arity: [2, 3, 4], impl: grant },
  });
}
