import type { TenantFeature } from '../common/config/features';
import { allPermissions, featureOfPermission, permissionsOf, type Permission } from './permissions';

/**
 * A set of permissions: what a caller may do. Interned, one instance per distinct set, so that
 * the callers holding the same permissions share one and it can key a cache (the live stream
 * serializes an event once per distinct set among its subscribers; there are as few as there
 * are combinations of roles).
 */
export class Grants {
  private static readonly interned = new Map<string, Grants>();
  private static readonly byRoles = new Map<string, Grants>();

  private static all: Grants | undefined;

  /** Every permission: the caller with AUTH_MODE=off, and the admin. */
  static get ALL(): Grants {
    return (Grants.all ??= Grants.of(allPermissions()));
  }
  private static none: Grants | undefined;

  /** No permission: a caller whose roles give nothing. */
  static get NONE(): Grants {
    return (Grants.none ??= Grants.of([]));
  }

  private readonly set: ReadonlySet<Permission>;
  /** without() per set of features off (few: the registry's combinations). */
  private readonly narrowed = new Map<string, Grants>();

  private constructor(
    /** The permissions in the order of allPermissions(), joined: equal sets, equal keys. */
    readonly key: string,
    permissions: readonly Permission[],
  ) {
    this.set = new Set(permissions);
  }

  /** The set of these permissions. */
  static of(permissions: readonly Permission[]): Grants {
    const ordered = allPermissions().filter((permission) => permissions.includes(permission));
    const key = ordered.join(' ');
    let grants = Grants.interned.get(key);
    if (grants === undefined) {
      grants = new Grants(key, ordered);
      Grants.interned.set(key, grants);
    }
    return grants;
  }

  /** What roles named as stored in usua_roles give (docs/security.md). */
  static ofRoles(roles: readonly string[]): Grants {
    const key = roles.join('\u0000');
    let grants = Grants.byRoles.get(key);
    if (grants === undefined) {
      grants = Grants.of(permissionsOf(roles));
      // role names come from tenants' tables: keep the memo small whatever they hold
      if (Grants.byRoles.size >= 1_000) Grants.byRoles.clear();
      Grants.byRoles.set(key, grants);
    }
    return grants;
  }

  /** These grants less the permissions of `features` (switched off for a tenant). */
  without(features: readonly TenantFeature[]): Grants {
    if (features.length === 0) return this;
    const key = features.join(' ');
    let narrowed = this.narrowed.get(key);
    if (narrowed === undefined) {
      narrowed = Grants.of(
        allPermissions().filter((permission) => {
          const feature = featureOfPermission(permission);
          return this.set.has(permission) && (feature === undefined || !features.includes(feature));
        }),
      );
      this.narrowed.set(key, narrowed);
    }
    return narrowed;
  }

  has(permission: Permission): boolean {
    return this.set.has(permission);
  }
}
