import '../modules';
import { DECORATORS } from '@nestjs/swagger';
import { ApiProperty } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { IsInt, IsOptional, Max, validateSync } from 'class-validator';
import { Grants } from '../auth/grants';
import type { Actor } from '../auth/auth.decorators';
import type { Queryable } from '../database/sql';
import { defineError } from '../common/errors/error-catalogue';
import { comandaAcciones } from './comanda-actions';
import {
  composedExtensions,
  defineComandaExtension,
  documentedProperties,
  extensionUpdateFields,
} from './comanda-contract';
import { ComandaExtensions } from './comanda-extensions';
import { comandaActions, InvalidTransitionError, transition } from './comanda-state';
import type { LockedComanda } from './comandas.repository';
import { ComandasController } from './comandas.controller';
import { ComandasModule } from './comandas.module';
import { ItemInput, UpdateComandaBody } from './dto/comanda-input.dto';
import { ComandaDetail, ComandaItem, ComandaSummary } from './dto/comanda-output.dto';

/*
 * How an extension's contract joins the comandas, with two extensions of this spec's own (the
 * application's are checked by comanda-state.spec.ts and comanda-actions.spec.ts): each spec
 * file composes its own process, so these are the only ones here.
 */

class Sugerencia {
  @ApiProperty({ required: false, example: 5, description: 'A suggested tip' })
  propina_sugerida!: number;
}

class MesaAlta {
  @ApiProperty({ required: false, type: 'integer', maximum: 3 })
  @IsOptional()
  @IsInt()
  @Max(3)
  sillas_altas?: number;
}

class Alergenos {
  @ApiProperty({ required: false, type: String, isArray: true })
  alergenos!: string[];
}

const NO_ASI = defineError({
  status: 409,
  code: 'NO_ASI',
  summary: 'The first extension refuses it',
  en: () => 'Not this way',
  es: () => 'Así no',
  example: [],
});

const PRIMERA = defineComandaExtension({
  name: 'primera',
  actions: { pagar: { permission: 'cobros:pay', from: { abierta: {} } } },
  updateFields: MesaAlta,
  detailFields: Sugerencia,
  errors: [{ on: ['eliminar'], errors: [NO_ASI] }],
});

const SEGUNDA = defineComandaExtension({
  name: 'segunda',
  actions: {
    listo: { permission: 'cocina:bump', from: { cerrada: {}, eliminada: {} } },
    enviar: { permission: 'cocina:send', from: { abierta: {} } },
  },
  lineFields: Alergenos,
});

ComandasModule.extendWith([PRIMERA, SEGUNDA]);

/** The examples a route's documented error response of `status` shows, by name. */
function documentedErrors(handler: string, status: number): string[] {
  const prototype = ComandasController.prototype as unknown as Record<string, object>;
  const responses = Reflect.getMetadata(DECORATORS.API_RESPONSE, prototype[handler]) as Record<
    string,
    { examples?: Record<string, unknown> }
  >;
  return Object.keys(responses[String(status)]?.examples ?? {});
}

describe('extending the comandas', () => {
  it('adds the actions to the state machine after the comanda’s own, in the extensions’ order', () => {
    expect(comandaActions().slice(-3)).toEqual(['pagar', 'listo', 'enviar']);
    expect(transition('abierta', 'pagar')).toEqual({});
    expect(transition('eliminada', 'listo')).toEqual({});
    expect(() => transition('cerrada', 'pagar')).toThrow(InvalidTransitionError);
    expect(() => transition('abierta', 'listo')).toThrow(InvalidTransitionError);
  });

  it('lists them in `acciones` by their permissions, and gives each extension its own map', () => {
    expect(comandaAcciones().permitted('cerrada', Grants.ALL)).toEqual([
      'abrir',
      'eliminar',
      'listo',
    ]);
    expect(comandaAcciones().permitted('abierta', Grants.ofRoles(['mozo']))).toContain('enviar');
    expect(comandaAcciones().permitted('abierta', Grants.ofRoles(['mozo']))).not.toContain('pagar');
    expect(comandaAcciones().permissionOf('pagar')).toBe('cobros:pay');
    expect(PRIMERA.acciones.permitted('abierta', Grants.ALL)).toEqual(['pagar']);
    expect(SEGUNDA.acciones.permitted('eliminada', Grants.ALL)).toEqual(['listo']);
    expect(SEGUNDA.acciones.permissionOf('enviar')).toBe('cocina:send');
  });

  it('adds their fields to the schemas after the comanda’s own', () => {
    expect(documentedProperties(ComandaDetail).at(-1)).toBe('propina_sugerida');
    expect(documentedProperties(ComandaItem).at(-1)).toBe('alergenos');
    expect(documentedProperties(UpdateComandaBody).at(-1)).toBe('sillas_altas');
    expect(documentedProperties(ItemInput)).not.toContain('sillas_altas');
    expect(extensionUpdateFields()).toEqual(['sillas_altas']);
  });

  it('names every action in the documented enums', () => {
    const acciones = Reflect.getMetadata(
      DECORATORS.API_MODEL_PROPERTIES,
      ComandaSummary.prototype,
      'acciones',
    ) as { items: { enum: string[] } };
    expect(acciones.items.enum.slice(-3)).toEqual(['pagar', 'listo', 'enviar']);
  });

  it('validates a body field of an extension like the comanda’s own', () => {
    const check = (body: object) =>
      validateSync(plainToInstance(UpdateComandaBody, body), {
        whitelist: true,
        forbidNonWhitelisted: true,
      }).map((error) => error.property);
    expect(check({ sillas_altas: 2 })).toEqual([]);
    expect(check({ sillas_altas: 4 })).toEqual(['sillas_altas']);
    expect(check({ otra_cosa: 1 })).toEqual(['otra_cosa']);
  });

  it('documents the errors of an extension on the routes performing the actions they refuse', () => {
    expect(documentedErrors('remove', 409)).toEqual([
      'IDEMPOTENCY_KEY_IN_USE',
      'INVALID_TRANSITION',
      'NO_ASI',
    ]);
    expect(documentedErrors('split', 409)).not.toContain('NO_ASI');
    expect(documentedErrors('update', 409)).not.toContain('NO_ASI');
  });

  it('composes once: the same list again changes nothing, another one is refused', () => {
    ComandasModule.extendWith([PRIMERA, SEGUNDA]);
    expect(composedExtensions()).toEqual([PRIMERA, SEGUNDA]);
    expect(comandaActions().filter((action) => action === 'pagar')).toHaveLength(1);
    expect(documentedErrors('remove', 409).filter((name) => name === 'NO_ASI')).toHaveLength(1);
    expect(() => ComandasModule.extendWith([SEGUNDA, PRIMERA])).toThrow(/extended by primera/);
  });

  it('runs the hooks in the order of the composition, whatever order they register in', async () => {
    const extensions = new ComandaExtensions();
    const ran: string[] = [];
    extensions.register(SEGUNDA, { checkChange: async () => void ran.push('segunda') });
    extensions.register(PRIMERA, { checkChange: async () => void ran.push('primera') });
    await extensions.checkChange({} as Queryable, {} as LockedComanda, 'cerrar');
    expect(ran).toEqual(['primera', 'segunda']);

    const otra = defineComandaExtension({ name: 'otra' });
    expect(() => extensions.register(otra, {})).toThrow(/otra is not composed/);
    expect(() => extensions.register(PRIMERA, {})).toThrow(/twice/);
    const actor: Actor = { id_usuario: null };
    await expect(
      extensions.afterTransition({} as Queryable, {} as LockedComanda, 'cerrar', actor),
    ).resolves.toBeUndefined();
  });
});
