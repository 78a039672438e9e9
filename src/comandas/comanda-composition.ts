import type { Type } from '@nestjs/common';
import { inheritTransformationMetadata, inheritValidationMetadata } from '@nestjs/mapped-types';
import { ApiProperty, DECORATORS, type ApiPropertyOptions } from '@nestjs/swagger';
import { ROUTE_ACTIONS } from '../auth/resource-actions';
import { ApiErrors } from '../common/http/openapi-errors';
import { addActionPermission } from './comanda-actions';
import {
  composeExtensions,
  documentedProperties,
  type ComandaExtensionContract,
  type ExtensionAction,
} from './comanda-contract';
import { addAction, comandaActions, type ComandaAction } from './comanda-state';
import { ComandasController } from './comandas.controller';
import { UpdateComandaBody } from './dto/comanda-input.dto';
import {
  ComandaDetail,
  ComandaEvento,
  ComandaItem,
  ComandaStreamEvent,
  ComandaSummary,
} from './dto/comanda-output.dto';

/**
 * `target` gains the properties `source` documents, after its own, as swagger's mapped types
 * copy them; with `validated`, their validation and transformation too (a body's fields).
 */
function addFields(target: Type, source: Type, validated: boolean): void {
  const from = source.prototype as object;
  for (const field of documentedProperties(source)) {
    const options = Reflect.getMetadata(
      DECORATORS.API_MODEL_PROPERTIES,
      from,
      field,
    ) as ApiPropertyOptions;
    ApiProperty(options)(target.prototype as object, field);
  }
  if (validated) {
    inheritValidationMetadata(source, target);
    inheritTransformationMetadata(source, target);
  }
}

/**
 * Composes the comandas with their extensions, in order (ComandasModule.extendWith): the
 * actions join the state machine and the permission map after the comanda's own, the fields
 * join the body and answer DTOs (validation, OpenAPI schema) after the comanda's own, the
 * names of the actions join the documented enums (`acciones`, the audit's `accion`), and the
 * comanda's routes document the errors the extensions' rules add to them. Once per process:
 * decorators' metadata is the classes', whatever application is built.
 */
export function extendComandas(extensions: readonly ComandaExtensionContract[]): void {
  if (!composeExtensions(extensions)) return;
  for (const extension of extensions) {
    const actions = Object.entries(extension.actions ?? {}) as [ComandaAction, ExtensionAction][];
    for (const [action, { from, permission }] of actions) {
      addAction(action, from);
      addActionPermission(action, permission);
    }
    if (extension.updateFields) addFields(UpdateComandaBody, extension.updateFields, true);
    if (extension.detailFields) addFields(ComandaDetail, extension.detailFields, false);
    if (extension.lineFields) addFields(ComandaItem, extension.lineFields, false);
  }

  const all = comandaActions();
  ApiProperty({ enum: all, isArray: true })(ComandaSummary.prototype, 'acciones');
  ApiProperty({ enum: ['crear', ...all] })(ComandaEvento.prototype, 'accion');
  ApiProperty({ enum: ['crear', ...all] })(ComandaStreamEvent.prototype, 'accion');

  const routes = ComandasController.prototype as unknown as Record<string, object>;
  for (const handler of Object.getOwnPropertyNames(routes)) {
    const performs = Reflect.getMetadata(ROUTE_ACTIONS, routes[handler]) as
      readonly ComandaAction[] | undefined;
    if (!performs) continue;
    const errors = extensions.flatMap((extension) =>
      (extension.errors ?? [])
        .filter((group) => group.on.some((action) => performs.includes(action)))
        .flatMap((group) => group.errors),
    );
    // swagger adds the examples to those of the route's responses of the same status
    const descriptor = Object.getOwnPropertyDescriptor(routes, handler)!;
    if (errors.length > 0) ApiErrors(...errors)(routes, handler, descriptor);
  }
}
