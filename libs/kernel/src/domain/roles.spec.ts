import { effectiveRole, resolveDefaultLevel } from './roles';

describe('default levels and effective roles', () => {
  it('takes the first level that is not inherit, walking up to the organization', () => {
    expect(resolveDefaultLevel(['inherit', 'edit', 'read'])).toBe('edit');
    expect(resolveDefaultLevel(['inherit', 'inherit', 'read'])).toBe('read');
    expect(resolveDefaultLevel([null, 'admin'])).toBeNull();
    expect(resolveDefaultLevel(['inherit'])).toBeNull();
  });

  it('gives the stronger of the organization role and the default in force', () => {
    expect(effectiveRole('read', ['inherit', 'edit'])).toBe('edit');
    expect(effectiveRole('admin', [null])).toBe('admin');
    expect(effectiveRole(undefined, ['comment'])).toBe('comment');
    expect(effectiveRole(null, [null])).toBeNull();
  });
});
