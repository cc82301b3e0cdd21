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

const reader: PermissionHolder = { perm: 'read', grants: [{ pattern: 'x', perm: 'none' }] };

describe('allowsUpdate (the early refusal; each change is judged when applied)', () => {
  test('write: the global level or a write grant on some database', () => {
    expect(allowsUpdate(local, 'write')).toBe(true);
    expect(allowsUpdate(writer, 'write')).toBe(true);
    expect(allowsUpdate(reader, 'write')).toBe(false);
  });

  test('create is global only', () => {
    expect(allowsUpdate(local, 'create')).toBe(false);
    expect(allowsUpdate(writer, 'create')).toBe(false);
    expect(allowsUpdate(admin, 'create')).toBe(true);
  });
});
