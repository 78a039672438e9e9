/** The API's shapes the page reads (docs/comandas.md, docs/api-contract.md). */

export type Estado = 'abierta' | 'cerrada';

export interface ComandaSummary {
  id_comanda: number;
  numero_ticket: number;
  id_mesa: number | null;
  mesa: number | null;
  id_usuario: number | null;
  mozo: string | null;
  id_cliente: number | null;
  cliente: string | null;
  estado: Estado;
  fec_apertura: string;
  fec_cierre: string | null;
  total: number;
  n_items: number;
  eliminada: boolean;
  version: number;
}

export interface Linea {
  id_item: number;
  id_producto: number;
  producto: string;
  cantidad: number;
  precio_unitario: number;
  subtotal: number;
  nota: string | null;
  id_usuario: number | null;
  usuario: string | null;
  fec_registro: string;
}

export interface ComandaDetail extends ComandaSummary {
  observacion: string | null;
  fec_eliminacion: string | null;
  lineas: Linea[];
}

export interface Evento {
  id_evento: number;
  accion: string;
  id_usuario: number | null;
  usuario: string | null;
  motivo: string | null;
  antes: Record<string, unknown> | null;
  despues: Record<string, unknown> | null;
  fec_evento: string;
}

export interface StreamEvent {
  id_evento: number;
  id_comanda: number;
  accion: string;
  id_usuario: number | null;
  usuario: string | null;
  motivo: string | null;
  fec_evento: string;
  comanda: ComandaSummary;
}

export interface Producto {
  id_producto: number;
  nombre: string;
  precio: number;
  activo: boolean;
  id_categoria: number | null;
  categoria: string | null;
}

export interface Mesa {
  id_mesa: number;
  numero: number;
  abiertas?: number;
}
