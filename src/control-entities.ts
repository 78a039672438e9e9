import { Device } from './device-drivers/entities/device.entity';
import { Tenant } from './tenancy/entities/tenant.entity';

/**
 * Entities mapped on the control database, from the modules that keep rows there (the tenant
 * catalog, the registered time clocks). It sits beside the root module, which composes the
 * modules, so that src/database depends on none of them.
 */
export const CONTROL_ENTITIES = [Tenant, Device];
