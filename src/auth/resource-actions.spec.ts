import { Grants } from './grants';
import '../modules';
import { allPermissions } from './permissions';
import { ResourceActions } from './resource-actions';

type State = 'open' | 'closed';
type Action = 'close' | 'edit' | 'reopen';

const TICKETS = new ResourceActions<State, Action>(
  ['close', 'edit', 'reopen'],
  { close: 'comandas:close', edit: 'comandas:write', reopen: 'comandas:close' },
  // any order: the answers follow the actions' order
  (state) => (state === 'open' ? ['edit', 'close'] : ['reopen']),
);

describe('ResourceActions: the state machine × the caller’s permissions', () => {
  it('lists the actions the state allows whose permission the caller holds, in a fixed order', () => {
    expect(TICKETS.permitted('open', Grants.ALL)).toEqual(['close', 'edit']);
    expect(TICKETS.permitted('closed', Grants.ALL)).toEqual(['reopen']);
    expect(TICKETS.permitted('open', Grants.of(['comandas:write']))).toEqual(['edit']);
    expect(TICKETS.permitted('closed', Grants.of(['comandas:write']))).toEqual([]);
    expect(TICKETS.permitted('open', Grants.NONE)).toEqual([]);
  });

  it('answers the same frozen array for the same permissions and state', () => {
    const first = TICKETS.permitted('open', Grants.ofRoles(['cajero']));
    expect(TICKETS.permitted('open', Grants.ofRoles([' CAJERO ']))).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });
});

describe('Grants', () => {
  it('is one instance per set of permissions, whatever the order or the roles giving it', () => {
    expect(Grants.of(['comandas:write', 'comandas:read'])).toBe(
      Grants.of(['comandas:read', 'comandas:write']),
    );
    expect(Grants.ofRoles(['admin'])).toBe(Grants.ALL);
    expect(Grants.ofRoles(['gerente'])).toBe(Grants.NONE);
    expect(Grants.ofRoles(['cocina']).key).toBe(
      'comandas:read reservas:read inventario:waste cocina:read cocina:bump',
    );
  });

  it('holds exactly its permissions', () => {
    const waiter = Grants.ofRoles(['mozo']);
    expect(allPermissions().filter((p) => waiter.has(p))).toEqual([
      'comandas:read',
      'comandas:write',
      'comandas:split',
      'comandas:merge',
      'comandas:transfer',
      'reservas:read',
      'reservas:write',
      'reservas:seat',
      'cocina:read',
      'cocina:send',
    ]);
  });
});
