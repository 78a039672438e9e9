/**
 * import_asistencia through the RPC route: records whose text PostgreSQL cannot hold would make
 * the jsonb cast of the whole call fail (`unsupported Unicode escape sequence` for NUL, an
 * invalid surrogate for a lone one), so none of the good records would be stored. They are
 * kept out of the call and reported in the function's own `invalidos` list instead.
 */

export interface Invalido {
  indice: number;
  motivo: string;
}

export interface StorableRecords {
  /** The records sent to the store function, in their order. */
  kept: unknown[];
  /** For each kept record, its index among the records the client sent. */
  keptIndexes: number[];
  /** The records left out, with their index among the records the client sent. */
  refused: Invalido[];
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What a string holds that PostgreSQL text and jsonb cannot: 'NUL', 'surrogate' or nothing. */
function unstorableText(text: string): 'NUL' | 'surrogate' | undefined {
  if (text.includes('\u0000')) return 'NUL';
  if (LONE_SURROGATE.test(text)) return 'surrogate';
  return undefined;
}

const MOTIVOS = {
  NUL: 'el registro contiene caracteres que no se pueden guardar (NUL)',
  surrogate:
    'el registro contiene caracteres que no se pueden guardar (sustitutos UTF-16 sin pareja)',
} as const;

/**
 * Why a JSON value cannot be stored as jsonb, or undefined when it can: a string (value or key,
 * at any depth) holding NUL or an unpaired surrogate. Iterative: a deeply nested body does not
 * exhaust the stack.
 */
export function unstorableMotivo(value: unknown): string | undefined {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      const why = unstorableText(item);
      if (why) return MOTIVOS[why];
    } else if (Array.isArray(item)) {
      pending.push(...(item as unknown[]));
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, child] of Object.entries(item)) {
        const why = unstorableText(key);
        if (why) return MOTIVOS[why];
        pending.push(child);
      }
    }
  }
  return undefined;
}

/** Splits the records a client sent into those the store function can take and the others. */
export function splitStorable(registros: unknown[]): StorableRecords {
  const out: StorableRecords = { kept: [], keptIndexes: [], refused: [] };
  registros.forEach((registro, indice) => {
    const motivo = unstorableMotivo(registro);
    if (motivo) out.refused.push({ indice, motivo });
    else {
      out.kept.push(registro);
      out.keptIndexes.push(indice);
    }
  });
  return out;
}

/** `origen` is text: NUL, which text cannot hold, is removed. */
export function storableOrigen(origen: unknown): string | null {
  return typeof origen === 'string' ? origen.replaceAll('\u0000', '') : null;
}

/**
 * The store function's answer as if it had received every record: its `invalidos` indices
 * mapped back to the client's positions, the refused records merged in (by index), and
 * `recibidos` the number of records the client sent.
 */
export function mergeRefused(
  result: unknown,
  sent: number,
  split: Pick<StorableRecords, 'keptIndexes' | 'refused'>,
): unknown {
  if (split.refused.length === 0) return result;
  const fields =
    typeof result === 'object' && result !== null && !Array.isArray(result)
      ? (result as Record<string, unknown>)
      : {};
  const own = Array.isArray(fields.invalidos) ? (fields.invalidos as unknown[]) : [];
  const remapped = own.map((item) => {
    if (typeof item !== 'object' || item === null) return item;
    const invalido = item as Record<string, unknown>;
    const indice = invalido.indice;
    return typeof indice === 'number' && Number.isInteger(indice) && indice >= 0
      ? { ...invalido, indice: split.keptIndexes[indice] ?? indice }
      : invalido;
  });
  const invalidos = [...remapped, ...split.refused].sort((a, b) => indexOf(a) - indexOf(b));
  return { ...fields, recibidos: sent, invalidos };
}

const indexOf = (item: unknown): number => {
  const indice = (item as { indice?: unknown } | null)?.indice;
  return typeof indice === 'number' ? indice : Number.MAX_SAFE_INTEGER;
};
