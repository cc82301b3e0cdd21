import { allows, allowsUpdate, type PermissionHolder } from '../../lib/users/permissions';

const local: PermissionHolder = { perm: 'read', grants: [{ pattern: 'pub*', perm: 'write' }] };
const writer: PermissionHolder = { perm: 'write', grants: [{ pattern: 'secret', perm: 'read' }] };
const admin: PermissionHolder = { perm: 'admin', grants: [] };

describe('allows', () => {
  test('a matching grant decides read and write on a database; create is global', () => {
    expect(allows(local, 'write', 'pub1')).toBe(true);
    expect(allows(local, 'write', 'other')).toBe(false);
    expect(allows(writer, 'write', 'secret')).toBe(false);
    expect(allows(local, 'create', 'pub1')).toBe(false);
  });
});

describe('allowsUpdate', () => {
  test('write is needed on every database the update locks', () => {
    expect(allowsUpdate(local, 'write', ['pub1', 'pub2'])).toBe(true);
    expect(allowsUpdate(local, 'write', ['pub1', 'other'])).toBe(false);
    expect(allowsUpdate(writer, 'write', ['a', 'secret'])).toBe(false);
  });

  test('without known databases, the fallback database decides, else the global level', () => {
    expect(allowsUpdate(local, 'write', '*')).toBe(false);
    expect(allowsUpdate(local, 'write', [])).toBe(false);
    expect(allowsUpdate(local, 'write', '*', 'pub1')).toBe(true);
    expect(allowsUpdate(writer, 'write', '*')).toBe(true);
  });

  test('create is global only', () => {
    expect(allowsUpdate(local, 'create', ['pub1'])).toBe(false);
    expect(allowsUpdate(writer, 'create', ['a'])).toBe(false);
    expect(allowsUpdate(admin, 'create', '*')).toBe(true);
  });
});
