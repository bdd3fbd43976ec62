import { organizationPermissions } from './organization-permissions';

describe('organization permissions', () => {
  it('derives organization permissions from the role', () => {
    expect(organizationPermissions('admin')).toMatchObject({ view: true, admin: true, createContent: true });
    expect(organizationPermissions('create')).toMatchObject({ admin: false, createContent: true, viewBilling: false });
    expect(organizationPermissions('read')).toMatchObject({ view: true, createContent: false, listMembers: true });
    expect(Object.values(organizationPermissions(null)).every((allowed) => allowed === false)).toBe(true);
  });
});
