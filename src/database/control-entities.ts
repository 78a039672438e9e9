import { Device } from '../device-drivers/entities/device.entity';
import { Tenant } from '../tenancy/entities/tenant.entity';

/** Entities mapped on the control database. */
export const CONTROL_ENTITIES = [Tenant, Device];
