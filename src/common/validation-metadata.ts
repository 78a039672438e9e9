import { getMetadataStorage } from 'class-validator';

/**
 * class-validator looks a class's rules up again on every validation: the class's own, then
 * those of every class it extends, found by testing the class against every validated class
 * of the application (`instanceof` over the whole metadata storage), then grouped by property.
 * For a body class that extends another (UpdateComandaBody) that was the largest single cost of
 * validating a body (docs/performance.md). The rules of a class are fixed once its module is
 * loaded, so the answer is kept per class and options, and forgotten whenever a rule is added
 * (a class defined later, a schema registered).
 */

type Storage = ReturnType<typeof getMetadataStorage>;
type ValidationMetadata = ReturnType<Storage['getTargetValidationMetadatas']>[number];
type Grouped = Record<string, ValidationMetadata[]>;

const CACHED = Symbol('validationMetadataCached');

/** Keeps class-validator's rule look-ups (idempotent: the storage is patched once). */
export function cacheValidationMetadata(storage: Storage = getMetadataStorage()): void {
  const patched = storage as Storage & { [CACHED]?: true };
  if (patched[CACHED]) return;
  patched[CACHED] = true;

  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const addMetadata = storage.addValidationMetadata.bind(storage);
  const addSchema = storage.addValidationSchema.bind(storage);
  let byTarget = new Map<unknown, Map<string, ValidationMetadata[]>>();
  let grouped = new WeakMap<ValidationMetadata[], Grouped>();
  const forget = () => {
    byTarget = new Map();
    grouped = new WeakMap();
  };

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    // the look-up reads `always` and `strictGroups` as booleans and no groups as an empty list:
    // a validation without any of them (every one of the service's) has one key
    const key =
      schema === undefined && !always && !strictGroups && !groups?.length
        ? ''
        : `${schema}\u0000${Boolean(always)}\u0000${Boolean(strictGroups)}\u0000${(groups ?? []).join('\u0001')}`;
    let forTarget = byTarget.get(target);
    if (!forTarget) byTarget.set(target, (forTarget = new Map<string, ValidationMetadata[]>()));
    let found = forTarget.get(key);
    if (!found) {
      // shared by every later validation of the class: its readers (class-validator's executor,
      // Nest's pipe) only read it; not frozen, which would take V8's fast paths off their
      // filters
      found = lookUp(target, schema, always, strictGroups, groups);
      forTarget.set(key, found);
    }
    return found;
  };
  storage.groupByPropertyName = (metadata) => {
    let found = grouped.get(metadata);
    if (!found) {
      found = group(metadata);
      grouped.set(metadata, found);
    }
    return found;
  };
  storage.addValidationMetadata = (metadata) => {
    forget();
    addMetadata(metadata);
  };
  storage.addValidationSchema = (schema) => {
    forget();
    addSchema(schema);
  };
}
