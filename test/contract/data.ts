import { expectStatus, type ContractClient } from './client';
import { variable } from './env';

/** What the suite needs from the tenant, found through the API. */
export interface ContractData {
  /** A product on sale: its id, name and price now. */
  product: { id: number; name: string; precio: number };
  /** A table (mesas.id_mesa) and its number. */
  mesa: { id: number; numero: number | null };
  /** A staff member who waited on a recent comanda, when the tenant has one. */
  waiter?: number;
  /** The comanda opened to check the table and the product (voided at cleanup). */
  probe: number;
}

interface Summary {
  id_comanda: number;
  id_mesa: number | null;
  id_usuario: number | null;
  n_items: number;
}

interface Linea {
  id_producto: number;
}

/** How many recent comandas are read for candidates, and how many candidates are tried. */
const RECENT = 20;
const TRIES = 15;

/** A positive integer id from a variable (E2E_PRODUCT_ID ...); undefined when unset. */
export function positiveInt(name: string): number | undefined {
  const value = variable(name);
  if (value === undefined) return undefined;
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id < 1) {
    throw new Error(`${name} must be a positive integer id (got "${value}")`);
  }
  return id;
}

const unique = (ids: number[]) => [...new Set(ids)];

/**
 * Finds a table and a product on sale without assuming any id: `E2E_MESA_ID` /
 * `E2E_PRODUCT_ID` when given; otherwise the tables and the products of the lines of the most
 * recent comandas (and the generic table routes when they are on for the tenant). Each candidate
 * is checked by using it: a comanda is opened at the table (the probe, tagged and voided at the
 * end like the others) and the product is ordered on it; a product no longer on sale answers
 * 400 PRODUCT_INACTIVE and the next one is tried.
 */
export async function discoverData(api: ContractClient, tag: string): Promise<ContractData> {
  const tenant = api.target.tenant;
  const mesaId = positiveInt('E2E_MESA_ID');
  const productId = positiveInt('E2E_PRODUCT_ID');

  const recent = await api.get(`/comandas?limit=${RECENT}`);
  expectStatus(recent, 200);
  const summaries = recent.body as Summary[];
  const waiter = summaries.find((c) => c.id_usuario !== null)?.id_usuario ?? undefined;

  const features = await api.get('/tenant');
  expectStatus(features, 200);
  const genericTables = (features.body as { features?: { genericTables?: boolean } }).features
    ?.genericTables;

  // Tables
  let mesaCandidates: number[];
  if (mesaId !== undefined) mesaCandidates = [mesaId];
  else {
    mesaCandidates = summaries.flatMap((c) => (c.id_mesa === null ? [] : [c.id_mesa]));
    if (genericTables) {
      const mesas = await api.get('/table/mesas?limit=50');
      if (mesas.status === 200) {
        for (const m of mesas.body as { id_mesa: number; activo: boolean }[])
          if (m.activo) mesaCandidates.push(m.id_mesa);
      }
    }
    mesaCandidates = unique(mesaCandidates).slice(0, TRIES);
  }
  let probe: { id_comanda: number; mesa: number | null } | undefined;
  const refused: string[] = [];
  for (const id of mesaCandidates) {
    const res = await api.post('/comandas', { id_mesa: id, observacion: tag });
    if (res.status === 201) {
      probe = res.body;
      break;
    }
    if (res.status === 400 && res.body?.code === '23503') {
      refused.push(`${id}: ${res.body.error}`);
      continue;
    }
    throw new Error(
      `POST /comandas (tenant ${tenant}) answered ${res.status}: ${res.text}` +
        (res.status === 403
          ? '\nE2E_TOKEN must be the token of a user with the admin role (npm run token -- --tenant <slug> --list)'
          : ''),
    );
  }
  if (!probe) {
    throw new Error(
      mesaId !== undefined
        ? `E2E_MESA_ID=${mesaId} is not a table of tenant ${tenant} (${refused.join('; ')}): set E2E_MESA_ID to the id_mesa of one of its tables`
        : `No table found on tenant ${tenant}: its recent comandas name no table${refused.length ? ` that still exists (${refused.join('; ')})` : ''}. Set E2E_MESA_ID to the id_mesa of one of its tables`,
    );
  }

  // Products
  let productCandidates: number[];
  if (productId !== undefined) productCandidates = [productId];
  else {
    productCandidates = [];
    for (const c of summaries.filter((s) => s.n_items > 0).slice(0, 10)) {
      const detail = await api.get(`/comandas/${c.id_comanda}`);
      if (detail.status !== 200) continue;
      for (const line of detail.body.lineas as Linea[]) productCandidates.push(line.id_producto);
    }
    if (genericTables) {
      const products = await api.get('/table/productos?limit=100');
      if (products.status === 200) {
        for (const p of products.body as { id_producto: number; activo: boolean }[])
          if (p.activo) productCandidates.push(p.id_producto);
      }
    }
    productCandidates = unique(productCandidates).slice(0, TRIES);
  }
  const skipped: string[] = [];
  for (const id of productCandidates) {
    const res = await api.post(`/comandas/${probe.id_comanda}/items`, {
      id_producto: id,
      cantidad: 1,
    });
    if (res.status === 201) {
      const lineas = res.body.lineas as {
        id_producto: number;
        producto: string;
        precio_unitario: number;
      }[];
      const line = lineas.find((l) => l.id_producto === id)!;
      return {
        product: { id, name: line.producto, precio: line.precio_unitario },
        mesa: { id: (res.body as { id_mesa: number }).id_mesa, numero: probe.mesa },
        waiter,
        probe: probe.id_comanda,
      };
    }
    if (
      res.status === 400 &&
      (res.body?.code === 'PRODUCT_INACTIVE' || res.body?.code === 'PRODUCT_NOT_FOUND')
    ) {
      skipped.push(`${id}: ${res.body.code}`);
      continue;
    }
    throw new Error(`POST /comandas/${probe.id_comanda}/items answered ${res.status}: ${res.text}`);
  }
  throw new Error(
    productId !== undefined
      ? `E2E_PRODUCT_ID=${productId} cannot be ordered on tenant ${tenant} (${skipped.join('; ')}): set E2E_PRODUCT_ID to the id of a product on sale (activo)`
      : `No product on sale found on tenant ${tenant}: ${skipped.length ? `the products of its recent comandas are not on sale (${skipped.join('; ')})` : 'its recent comandas have no lines'}. Set E2E_PRODUCT_ID to the id of a product on sale (activo)`,
  );
}
