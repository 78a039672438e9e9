import { ContractClient, runTag } from './client';
import { contractTarget, type ContractTarget } from './target';

export interface Contract {
  target: ContractTarget;
  api: ContractClient;
  /** `contract-suite <run id>`: the observacion of what this file creates. */
  tag: string;
  /** The token's user (its `sub`), the actor of the audit trail; null without a token. */
  actor: number | null;
}

/** The `sub` claim of a JWT, read without checking it (the service checks it). */
function subjectOf(token: string): number | null {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      sub?: unknown;
    };
    const sub = Number(payload.sub);
    return Number.isSafeInteger(sub) ? sub : null;
  } catch {
    return null;
  }
}

/**
 * The target of this file, checked before any test: the instance answers, the tenant exists and
 * the token (if any) is accepted, each refusal turned into what QA should set.
 */
export async function openContract(): Promise<Contract> {
  const target = await contractTarget();
  const api = new ContractClient(target);
  try {
    await preflight(api);
  } catch (error) {
    await target.close();
    throw error;
  }
  return {
    target,
    api,
    tag: runTag(),
    actor: target.token ? subjectOf(target.token) : null,
  };
}

async function preflight(api: ContractClient): Promise<void> {
  const { baseUrl, tenant, token } = api.target;
  let res;
  try {
    res = await api.get('/tenant');
  } catch (error) {
    throw new Error(
      `Nothing answers at ${baseUrl} (E2E_BASE_URL): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  if (res.status === 200) return;
  const code = (res.body as { code?: string } | undefined)?.code;
  const hint =
    res.status === 401
      ? token
        ? 'E2E_TOKEN was refused: issue one with the same AUTH_JWT_SECRET as the instance: E2E_TOKEN=$(npm run -s token -- --tenant <slug> --user <documento>)'
        : 'the instance asks for a token (AUTH_MODE=jwt): set E2E_TOKEN=$(npm run -s token -- --tenant <slug> --user <documento>)'
      : code === 'TENANT_NOT_FOUND' || code === 'TENANT_MISMATCH'
        ? `set E2E_TENANT to a tenant of the instance (and E2E_TOKEN to a token of that tenant)`
        : 'is E2E_BASE_URL the origin of a comandas instance (http://host:port)?';
  throw new Error(
    `GET ${baseUrl}/api/v1/tenant (X-Tenant-ID: ${tenant}) answered ${res.status}: ${res.text}\n${hint}`,
  );
}
