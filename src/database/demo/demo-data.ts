/**
 * Demo data of a tenant: a Lima-style cevichería with a year of order tickets, a year of
 * purchases and a month of staff attendance.
 *
 * Deterministic: one mulberry32 generator with a fixed seed drives every choice, so the same
 * `today` always gives the same rows, ids, names and amounts. Every date is an offset in days
 * before `today`; nothing is placed on `today` itself or later, so no demo row lies in the
 * future whatever the hour of provisioning. Timestamps are built in SQL from (days before
 * today, seconds after local midnight) and converted with `AT TIME ZONE` of the tenant.
 *
 * Each table is one bulk INSERT ... SELECT FROM jsonb_to_recordset($1) (every value is a
 * bound parameter). Keys are assigned here in chronological order and the identity sequences
 * are moved past them at the end. Totals and summaries are computed in SQL from the generated
 * subtotal columns, so they equal what the database itself would compute.
 */

export interface DemoDataOptions {
  /** YYYY-MM-DD, the provisioning day in the tenant time zone. */
  today: string;
  /** IANA time zone of the tenant (e.g. America/Lima). */
  timeZone: string;
}

export type DemoTable =
  | 'roles'
  | 'usuarios'
  | 'usua_roles'
  | 'categorias'
  | 'productos'
  | 'clientes'
  | 'mesas'
  | 'comandas'
  | 'deta_comandas'
  | 'comanda_eventos'
  | 'proveedores'
  | 'mate_primas'
  | 'compras'
  | 'deta_comp_producto'
  | 'deta_comp_materias'
  | 'prov_producto'
  | 'prov_mate_prima'
  | 'receta_producto'
  | 'asistencia_detalle'
  | 'asistencia_intervalo'
  | 'asistencia_resumen_diario';

/** Rows inserted per table. */
export type DemoDataSummary = Record<DemoTable, number>;

export type DemoQuery = (sql: string, params?: unknown[]) => Promise<unknown>;

const SEED = 0x0ce71c4e;

// ---------------------------------------------------------------------------------------------
// Catalog: what the restaurant sells, uses and buys
// ---------------------------------------------------------------------------------------------

type Unidad = 'kg' | 'g' | 'l' | 'ml' | 'unidad';

interface MateriaDef {
  nombre: string;
  unidad: Unidad;
  /** Usual purchase quantity range, in whole units of `unidad`. */
  lote: [number, number];
}

const MATERIAS: readonly MateriaDef[] = [
  { nombre: 'Pescado fresco (corvina)', unidad: 'kg', lote: [8, 25] },
  { nombre: 'Limón sutil', unidad: 'kg', lote: [10, 30] },
  { nombre: 'Cebolla roja', unidad: 'kg', lote: [8, 20] },
  { nombre: 'Ají limo', unidad: 'kg', lote: [1, 3] },
  { nombre: 'Ají amarillo', unidad: 'kg', lote: [2, 6] },
  { nombre: 'Culantro', unidad: 'kg', lote: [1, 3] },
  { nombre: 'Camote', unidad: 'kg', lote: [8, 20] },
  { nombre: 'Choclo desgranado', unidad: 'kg', lote: [5, 12] },
  { nombre: 'Mariscos surtidos', unidad: 'kg', lote: [5, 15] },
  { nombre: 'Langostinos', unidad: 'kg', lote: [2, 6] },
  { nombre: 'Calamar', unidad: 'kg', lote: [4, 10] },
  { nombre: 'Conchas negras', unidad: 'unidad', lote: [100, 300] },
  { nombre: 'Camarones de río', unidad: 'kg', lote: [2, 5] },
  { nombre: 'Papa amarilla', unidad: 'kg', lote: [10, 25] },
  { nombre: 'Papa blanca', unidad: 'kg', lote: [10, 30] },
  { nombre: 'Pollo', unidad: 'kg', lote: [8, 20] },
  { nombre: 'Lomo fino de res', unidad: 'kg', lote: [4, 10] },
  { nombre: 'Carne de res para guiso', unidad: 'kg', lote: [4, 10] },
  { nombre: 'Corazón de res', unidad: 'kg', lote: [3, 8] },
  { nombre: 'Pato', unidad: 'kg', lote: [4, 10] },
  { nombre: 'Arroz extra', unidad: 'kg', lote: [25, 50] },
  { nombre: 'Frejol canario', unidad: 'kg', lote: [5, 15] },
  { nombre: 'Yuca', unidad: 'kg', lote: [8, 20] },
  { nombre: 'Tomate', unidad: 'kg', lote: [5, 15] },
  { nombre: 'Ajo', unidad: 'kg', lote: [1, 3] },
  { nombre: 'Aceite vegetal', unidad: 'l', lote: [10, 20] },
  { nombre: 'Leche evaporada', unidad: 'l', lote: [6, 18] },
  { nombre: 'Queso fresco', unidad: 'kg', lote: [2, 6] },
  { nombre: 'Huevo', unidad: 'unidad', lote: [90, 180] },
  { nombre: 'Maíz morado', unidad: 'kg', lote: [5, 15] },
  { nombre: 'Azúcar rubia', unidad: 'kg', lote: [10, 25] },
  { nombre: 'Pisco quebranta', unidad: 'l', lote: [3, 9] },
  { nombre: 'Harina de trigo', unidad: 'kg', lote: [5, 15] },
  { nombre: 'Zapallo macre', unidad: 'kg', lote: [4, 10] },
  { nombre: 'Chancaca', unidad: 'kg', lote: [2, 5] },
  { nombre: 'Canela y clavo de olor', unidad: 'g', lote: [200, 500] },
  { nombre: 'Esencia de vainilla', unidad: 'ml', lote: [250, 1000] },
];

const CATEGORIAS: readonly { nombre: string; descripcion: string }[] = [
  { nombre: 'Ceviches y tiraditos', descripcion: 'Pescados y mariscos marinados en limón' },
  { nombre: 'Entradas', descripcion: 'Piqueos fríos y calientes para compartir' },
  { nombre: 'Platos criollos', descripcion: 'Fondos de la cocina criolla limeña' },
  { nombre: 'Arroces y chaufas', descripcion: 'Arroces marinos y criollos' },
  { nombre: 'Sopas y chupes', descripcion: 'Sopas, chupes y parihuelas' },
  { nombre: 'Postres', descripcion: 'Postres limeños de la casa' },
  { nombre: 'Bebidas', descripcion: 'Refrescos de la casa, cócteles y bebidas embotelladas' },
];

interface ProductoDef {
  nombre: string;
  categoria: string;
  /** Sale price in céntimos. */
  precio: number;
  /** Relative popularity when the demo picks dishes for a ticket. */
  peso: number;
  /** Raw material and quantity per portion, in thousandths of the material's unidad. */
  receta: readonly (readonly [string, number])[];
}

const PRODUCTOS: readonly ProductoDef[] = [
  {
    nombre: 'Ceviche clásico',
    categoria: 'Ceviches y tiraditos',
    precio: 3800,
    peso: 10,
    receta: [
      ['Pescado fresco (corvina)', 220],
      ['Limón sutil', 150],
      ['Cebolla roja', 80],
      ['Ají limo', 10],
      ['Camote', 150],
    ],
  },
  {
    nombre: 'Ceviche mixto',
    categoria: 'Ceviches y tiraditos',
    precio: 4500,
    peso: 7,
    receta: [
      ['Pescado fresco (corvina)', 150],
      ['Mariscos surtidos', 120],
      ['Limón sutil', 150],
      ['Cebolla roja', 80],
      ['Choclo desgranado', 80],
    ],
  },
  {
    nombre: 'Ceviche de conchas negras',
    categoria: 'Ceviches y tiraditos',
    precio: 4800,
    peso: 2,
    receta: [
      ['Conchas negras', 12000],
      ['Limón sutil', 120],
      ['Cebolla roja', 60],
      ['Ají limo', 10],
    ],
  },
  {
    nombre: 'Tiradito al ají amarillo',
    categoria: 'Ceviches y tiraditos',
    precio: 3600,
    peso: 4,
    receta: [
      ['Pescado fresco (corvina)', 200],
      ['Limón sutil', 120],
      ['Ají amarillo', 60],
      ['Culantro', 5],
    ],
  },
  {
    nombre: 'Leche de tigre',
    categoria: 'Ceviches y tiraditos',
    precio: 2200,
    peso: 5,
    receta: [
      ['Pescado fresco (corvina)', 80],
      ['Limón sutil', 100],
      ['Ají limo', 10],
      ['Calamar', 40],
    ],
  },
  {
    nombre: 'Causa limeña de pollo',
    categoria: 'Entradas',
    precio: 2200,
    peso: 4,
    receta: [
      ['Papa amarilla', 250],
      ['Pollo', 100],
      ['Limón sutil', 30],
      ['Ají amarillo', 30],
    ],
  },
  {
    nombre: 'Papa a la huancaína',
    categoria: 'Entradas',
    precio: 1800,
    peso: 4,
    receta: [
      ['Papa blanca', 250],
      ['Queso fresco', 80],
      ['Leche evaporada', 80],
      ['Ají amarillo', 40],
      ['Huevo', 1000],
    ],
  },
  {
    nombre: 'Choritos a la chalaca',
    categoria: 'Entradas',
    precio: 2400,
    peso: 3,
    receta: [
      ['Mariscos surtidos', 200],
      ['Cebolla roja', 60],
      ['Tomate', 60],
      ['Limón sutil', 60],
      ['Choclo desgranado', 50],
    ],
  },
  {
    nombre: 'Anticuchos de corazón',
    categoria: 'Entradas',
    precio: 2600,
    peso: 4,
    receta: [
      ['Corazón de res', 250],
      ['Ajo', 10],
      ['Papa blanca', 150],
      ['Aceite vegetal', 20],
    ],
  },
  {
    nombre: 'Chicharrón de calamar',
    categoria: 'Entradas',
    precio: 3400,
    peso: 4,
    receta: [
      ['Calamar', 250],
      ['Harina de trigo', 50],
      ['Aceite vegetal', 150],
      ['Yuca', 150],
      ['Limón sutil', 30],
    ],
  },
  {
    nombre: 'Lomo saltado',
    categoria: 'Platos criollos',
    precio: 4200,
    peso: 8,
    receta: [
      ['Lomo fino de res', 200],
      ['Cebolla roja', 100],
      ['Tomate', 100],
      ['Papa blanca', 200],
      ['Arroz extra', 150],
    ],
  },
  {
    nombre: 'Ají de gallina',
    categoria: 'Platos criollos',
    precio: 3200,
    peso: 5,
    receta: [
      ['Pollo', 180],
      ['Ají amarillo', 50],
      ['Leche evaporada', 100],
      ['Papa amarilla', 150],
      ['Arroz extra', 150],
    ],
  },
  {
    nombre: 'Seco de res con frejoles',
    categoria: 'Platos criollos',
    precio: 3800,
    peso: 4,
    receta: [
      ['Carne de res para guiso', 250],
      ['Culantro', 15],
      ['Frejol canario', 100],
      ['Arroz extra', 150],
    ],
  },
  {
    nombre: 'Tacu tacu con bistec',
    categoria: 'Platos criollos',
    precio: 4000,
    peso: 3,
    receta: [
      ['Carne de res para guiso', 200],
      ['Frejol canario', 120],
      ['Arroz extra', 150],
      ['Huevo', 1000],
      ['Aceite vegetal', 30],
    ],
  },
  {
    nombre: 'Jalea mixta',
    categoria: 'Platos criollos',
    precio: 5200,
    peso: 5,
    receta: [
      ['Pescado fresco (corvina)', 200],
      ['Mariscos surtidos', 150],
      ['Calamar', 100],
      ['Yuca', 200],
      ['Harina de trigo', 80],
    ],
  },
  {
    nombre: 'Pescado a lo macho',
    categoria: 'Platos criollos',
    precio: 4800,
    peso: 3,
    receta: [
      ['Pescado fresco (corvina)', 250],
      ['Mariscos surtidos', 150],
      ['Ají amarillo', 40],
      ['Arroz extra', 150],
    ],
  },
  {
    nombre: 'Arroz con mariscos',
    categoria: 'Arroces y chaufas',
    precio: 4400,
    peso: 6,
    receta: [
      ['Arroz extra', 180],
      ['Mariscos surtidos', 200],
      ['Langostinos', 60],
      ['Ají amarillo', 30],
      ['Ajo', 10],
    ],
  },
  {
    nombre: 'Chaufa de mariscos',
    categoria: 'Arroces y chaufas',
    precio: 4000,
    peso: 4,
    receta: [
      ['Arroz extra', 200],
      ['Mariscos surtidos', 150],
      ['Huevo', 1000],
      ['Aceite vegetal', 30],
    ],
  },
  {
    nombre: 'Arroz con pato',
    categoria: 'Arroces y chaufas',
    precio: 4600,
    peso: 3,
    receta: [
      ['Pato', 350],
      ['Arroz extra', 180],
      ['Culantro', 20],
      ['Ají amarillo', 30],
    ],
  },
  {
    nombre: 'Chupe de camarones',
    categoria: 'Sopas y chupes',
    precio: 5200,
    peso: 3,
    receta: [
      ['Camarones de río', 200],
      ['Papa amarilla', 150],
      ['Leche evaporada', 100],
      ['Huevo', 1000],
      ['Queso fresco', 50],
    ],
  },
  {
    nombre: 'Parihuela',
    categoria: 'Sopas y chupes',
    precio: 5000,
    peso: 3,
    receta: [
      ['Pescado fresco (corvina)', 150],
      ['Mariscos surtidos', 200],
      ['Tomate', 100],
      ['Ajo', 10],
    ],
  },
  {
    nombre: 'Aguadito de pollo',
    categoria: 'Sopas y chupes',
    precio: 2400,
    peso: 3,
    receta: [
      ['Pollo', 200],
      ['Arroz extra', 80],
      ['Culantro', 25],
      ['Choclo desgranado', 50],
    ],
  },
  {
    nombre: 'Suspiro a la limeña',
    categoria: 'Postres',
    precio: 1400,
    peso: 3,
    receta: [
      ['Leche evaporada', 200],
      ['Huevo', 2000],
      ['Azúcar rubia', 80],
      ['Esencia de vainilla', 2000],
    ],
  },
  {
    nombre: 'Mazamorra morada',
    categoria: 'Postres',
    precio: 1000,
    peso: 2,
    receta: [
      ['Maíz morado', 80],
      ['Azúcar rubia', 50],
      ['Canela y clavo de olor', 2000],
      ['Harina de trigo', 20],
    ],
  },
  {
    nombre: 'Arroz con leche',
    categoria: 'Postres',
    precio: 1000,
    peso: 2,
    receta: [
      ['Arroz extra', 60],
      ['Leche evaporada', 150],
      ['Azúcar rubia', 50],
      ['Canela y clavo de olor', 2000],
    ],
  },
  {
    nombre: 'Picarones',
    categoria: 'Postres',
    precio: 1600,
    peso: 3,
    receta: [
      ['Zapallo macre', 100],
      ['Camote', 100],
      ['Harina de trigo', 120],
      ['Chancaca', 80],
      ['Aceite vegetal', 100],
    ],
  },
  {
    nombre: 'Chicha morada (jarra 1 l)',
    categoria: 'Bebidas',
    precio: 1800,
    peso: 6,
    receta: [
      ['Maíz morado', 150],
      ['Azúcar rubia', 100],
      ['Limón sutil', 40],
      ['Canela y clavo de olor', 3000],
    ],
  },
  {
    nombre: 'Limonada frozen',
    categoria: 'Bebidas',
    precio: 1200,
    peso: 5,
    receta: [
      ['Limón sutil', 120],
      ['Azúcar rubia', 60],
    ],
  },
  {
    nombre: 'Pisco sour',
    categoria: 'Bebidas',
    precio: 2400,
    peso: 5,
    receta: [
      ['Pisco quebranta', 90],
      ['Limón sutil', 40],
      ['Azúcar rubia', 30],
      ['Huevo', 1000],
    ],
  },
  {
    nombre: 'Chilcano de pisco',
    categoria: 'Bebidas',
    precio: 2200,
    peso: 3,
    receta: [
      ['Pisco quebranta', 60],
      ['Limón sutil', 30],
    ],
  },
  // Bottled drinks are bought ready-made (prov_producto, deta_comp_producto): no recipe.
  {
    nombre: 'Gaseosa personal 500 ml',
    categoria: 'Bebidas',
    precio: 700,
    peso: 6,
    receta: [],
  },
  { nombre: 'Cerveza rubia 620 ml', categoria: 'Bebidas', precio: 1400, peso: 5, receta: [] },
  {
    nombre: 'Agua mineral sin gas 625 ml',
    categoria: 'Bebidas',
    precio: 500,
    peso: 3,
    receta: [],
  },
  {
    nombre: 'Agua mineral con gas 625 ml',
    categoria: 'Bebidas',
    precio: 600,
    peso: 1,
    receta: [],
  },
];

interface ProveedorDef {
  razonSocial: string;
  telefono: string;
  email: string;
  direccion: string;
  /** Relative share of the purchases. */
  peso: number;
  /** Raw material and agreed price per unidad, in céntimos. */
  materias: readonly (readonly [string, number])[];
  /** Resold product and agreed price per unit, in céntimos. */
  productos: readonly (readonly [string, number])[];
}

const PROVEEDORES: readonly ProveedorDef[] = [
  {
    razonSocial: 'Pesquera Virgen del Carmen S.A.C.',
    telefono: '014502318',
    email: 'ventas@pesqueravirgendelcarmen.example',
    direccion: 'Terminal Pesquero de Villa María del Triunfo, puesto 48, Lima',
    peso: 10,
    materias: [
      ['Pescado fresco (corvina)', 3200],
      ['Mariscos surtidos', 2800],
      ['Langostinos', 4200],
      ['Calamar', 1800],
      ['Conchas negras', 120],
      ['Camarones de río', 9500],
    ],
    productos: [],
  },
  {
    razonSocial: 'Distribuidora Agrícola Santa Anita E.I.R.L.',
    telefono: '013627745',
    email: 'pedidos@agricolasantaanita.example',
    direccion: 'Mercado Mayorista de Santa Anita, pabellón B, puesto 112, Lima',
    peso: 9,
    materias: [
      ['Limón sutil', 650],
      ['Cebolla roja', 320],
      ['Ají limo', 1200],
      ['Ají amarillo', 900],
      ['Culantro', 800],
      ['Camote', 250],
      ['Choclo desgranado', 600],
      ['Papa amarilla', 450],
      ['Papa blanca', 220],
      ['Yuca', 280],
      ['Tomate', 350],
      ['Ajo', 900],
      ['Frejol canario', 850],
      ['Maíz morado', 550],
      ['Zapallo macre', 240],
      ['Arroz extra', 400],
    ],
    productos: [],
  },
  {
    razonSocial: 'Carnes y Aves La Victoria S.A.C.',
    telefono: '014319082',
    email: 'atencion@carneslavictoria.example',
    direccion: 'Jr. Hipólito Unanue 1245, La Victoria, Lima',
    peso: 5,
    materias: [
      ['Pollo', 1150],
      ['Lomo fino de res', 5800],
      ['Carne de res para guiso', 2800],
      ['Corazón de res', 1600],
      ['Pato', 2400],
      ['Huevo', 55],
    ],
    productos: [],
  },
  {
    razonSocial: 'Comercial Abarrotes Lima Norte S.A.',
    telefono: '015287360',
    email: 'ventas@abarroteslimanorte.example',
    direccion: 'Av. Alfredo Mendiola 3580, Los Olivos, Lima',
    peso: 6,
    materias: [
      ['Arroz extra', 420],
      ['Aceite vegetal', 890],
      ['Leche evaporada', 780],
      ['Queso fresco', 2200],
      ['Huevo', 60],
      ['Azúcar rubia', 380],
      ['Pisco quebranta', 3800],
      ['Harina de trigo', 360],
      ['Chancaca', 700],
      ['Canela y clavo de olor', 12],
      ['Esencia de vainilla', 5],
    ],
    productos: [
      ['Gaseosa personal 500 ml', 210],
      ['Cerveza rubia 620 ml', 620],
      ['Agua mineral sin gas 625 ml', 110],
      ['Agua mineral con gas 625 ml', 130],
    ],
  },
];

const ROLES: readonly { nombre: Rol; descripcion: string }[] = [
  { nombre: 'admin', descripcion: 'Administración: configuración, anulaciones y reportes' },
  { nombre: 'cajero', descripcion: 'Caja: cierre y cobro de comandas' },
  { nombre: 'mozo', descripcion: 'Salón: toma de pedidos y atención de mesas' },
  { nombre: 'cocina', descripcion: 'Cocina: preparación de los pedidos' },
];

type Rol = 'admin' | 'cajero' | 'mozo' | 'cocina';

interface StaffDef {
  nombre: string;
  apellido: string;
  roles: readonly Rol[];
  /** Shift segments in minutes after midnight of the work day; an end past 1440 crosses midnight. */
  turno: readonly (readonly [number, number])[];
  /** Weekly rest day, 0 = Sunday. */
  descanso: number;
}

const STAFF: readonly StaffDef[] = [
  {
    nombre: 'Carmen Rosa',
    apellido: 'Salazar Vega',
    roles: ['admin', 'cajero'],
    turno: [[540, 1080]],
    descanso: 0,
  },
  {
    nombre: 'Luis Alberto',
    apellido: 'Quispe Mamani',
    roles: ['cajero'],
    turno: [[660, 1140]],
    descanso: 1,
  },
  {
    nombre: 'Milagros',
    apellido: 'Huamán Torres',
    roles: ['cajero'],
    turno: [[1080, 1530]],
    descanso: 2,
  },
  {
    nombre: 'Jorge Luis',
    apellido: 'Rojas Chávez',
    roles: ['mozo'],
    turno: [
      [690, 960],
      [1140, 1410],
    ],
    descanso: 1,
  },
  {
    nombre: 'Diana',
    apellido: 'Flores Paredes',
    roles: ['mozo'],
    turno: [[660, 1140]],
    descanso: 3,
  },
  {
    nombre: 'Kevin',
    apellido: 'Ramírez Soto',
    roles: ['mozo'],
    turno: [[1080, 1530]],
    descanso: 4,
  },
  {
    nombre: 'Wilmer',
    apellido: 'Condori Apaza',
    roles: ['cocina'],
    turno: [[540, 1020]],
    descanso: 1,
  },
  {
    nombre: 'Rosa Elvira',
    apellido: 'Mendoza Cárdenas',
    roles: ['cocina'],
    turno: [
      [600, 930],
      [1080, 1380],
    ],
    descanso: 2,
  },
];

/** Staff ids (1-based positions in STAFF) by job. */
const ADMIN = 1;
const CAJERO_DIA = 2;
const CAJERO_NOCHE = 3;
const MOZOS_ALMUERZO = [4, 5];
const MOZOS_CENA = [4, 6];

/** (staff id, days before today) whose out-punch is missing: open interval, day incompleto. */
const SIN_SALIDA: readonly (readonly [number, number])[] = [
  [6, 1],
  [5, 12],
];

const CLIENTES: readonly {
  nombre: string;
  apellido: string | null;
  doc: 'dni' | 'ruc' | null;
  direccion: string | null;
}[] = [
  {
    nombre: 'Ana María',
    apellido: 'Gutiérrez Ríos',
    doc: 'dni',
    direccion: 'Av. Larco 345, Miraflores',
  },
  { nombre: 'José Antonio', apellido: 'Vargas Pinto', doc: 'dni', direccion: null },
  {
    nombre: 'Lucía',
    apellido: 'Fernández Castillo',
    doc: 'dni',
    direccion: 'Calle Los Laureles 120, San Isidro',
  },
  { nombre: 'Miguel Ángel', apellido: 'Torres Huanca', doc: 'dni', direccion: null },
  { nombre: 'Patricia', apellido: 'Sánchez León', doc: null, direccion: null },
  {
    nombre: 'Ricardo',
    apellido: 'Palacios Díaz',
    doc: 'dni',
    direccion: 'Av. Brasil 1840, Pueblo Libre',
  },
  { nombre: 'Elena', apellido: 'Chumpitaz Ramos', doc: 'dni', direccion: null },
  {
    nombre: 'Fernando',
    apellido: 'Aguilar Medina',
    doc: 'dni',
    direccion: 'Jr. Junín 512, Cercado de Lima',
  },
  { nombre: 'Sofía', apellido: 'Benavides Ortiz', doc: null, direccion: null },
  { nombre: 'Giancarlo', apellido: 'Rossi Valdivia', doc: 'dni', direccion: null },
  {
    nombre: 'Inversiones Costa Verde S.A.C.',
    apellido: null,
    doc: 'ruc',
    direccion: 'Av. José Pardo 601, oficina 804, Miraflores',
  },
  {
    nombre: 'Constructora Los Pinos S.R.L.',
    apellido: null,
    doc: 'ruc',
    direccion: 'Av. Javier Prado Este 2465, San Borja',
  },
];

const OBSERVACIONES = [
  'Cumpleaños: llevar el postre con vela',
  'Cliente frecuente',
  'Paga con tarjeta',
  'Solicita factura',
  'Cliente alérgico al maní',
  'Mesa con niños: traer sillita',
];
const NOTAS = [
  'Sin cebolla',
  'Bien picante',
  'Poco ají',
  'Sin culantro',
  'Término medio',
  'Para compartir',
  'Bien helada',
];
const MOTIVOS_ELIMINACION = [
  'Cliente se retiró antes de ser atendido',
  'Comanda duplicada por error',
  'Error de digitación: se registró en otra mesa',
  'Pedido anulado por demora en cocina',
  'Cortesía autorizada por administración',
];

// ---------------------------------------------------------------------------------------------
// Deterministic helpers
// ---------------------------------------------------------------------------------------------

/** mulberry32: a tiny, fast 32-bit PRNG; good enough for demo data and fully reproducible. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rng {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Index drawn with probability proportional to its weight. */
  weighted(weights: readonly number[]): number {
    const sum = weights.reduce((a, b) => a + b, 0);
    let r = this.next() * sum;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i];
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.int(0, 9));
    return s;
  }
}

/** Céntimos → '12.50' (exact decimal text, no float rounding). */
function money(cents: number): string {
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Thousandths → '0.250' (exact decimal text). */
function qty(milli: number): string {
  return `${Math.trunc(milli / 1000)}.${String(milli % 1000).padStart(3, '0')}`;
}

/** Seconds after midnight (< 86400) → 'HH:MM:SS'. */
function clock(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return [h, m, s].map((v) => String(v).padStart(2, '0')).join(':');
}

/** A RUC with a valid SUNAT check digit (modulo 11, weights 5432765432). */
function ruc(rng: Rng, prefix: '10' | '20'): string {
  const body = prefix + rng.digits(8);
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(body[i]), 0);
  const check = (11 - (sum % 11)) % 10;
  return body + String(check);
}

function parseToday(today: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(today);
  const utc = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  if (Number.isNaN(utc) || new Date(utc).toISOString().slice(0, 10) !== today) {
    throw new Error(`demo data: "today" must be a real date as YYYY-MM-DD, got "${today}"`);
  }
  return utc;
}

/**
 * SQL for a timestamptz at `dia` days before today plus `seg` seconds after local midnight,
 * in the tenant's zone. Requires the parameters $2 = today (date) and $3 = time zone.
 */
function at(dia: string, seg: string): string {
  return `((($2::date - ${dia}) + make_interval(secs => ${seg})) AT TIME ZONE $3)`;
}

// ---------------------------------------------------------------------------------------------
// Rows sent to the database (one JSON array per table)
// ---------------------------------------------------------------------------------------------

interface ComandaRow {
  id_comanda: number;
  id_mesa: number | null;
  id_usuario: number;
  id_cliente: number | null;
  estado: 'abierta' | 'cerrada';
  dia: number;
  seg_apertura: number;
  seg_cierre: number | null;
  seg_eliminacion: number | null;
  observacion: string | null;
  version: number;
}

interface DetaComandaRow {
  id_deta_comanda: number;
  id_comanda: number;
  id_producto: number;
  cantidad: string;
  nota: string | null;
  id_usuario: number;
  dia: number;
  seg: number;
}

interface EventoRow {
  id_comanda: number;
  accion: 'crear' | 'cerrar' | 'eliminar';
  id_usuario: number;
  motivo: string | null;
  dia: number;
  seg: number;
}

interface CompraRow {
  id_compra: number;
  id_proveedor: number;
  dia: number;
  seg: number;
  observacion: string;
}

interface DetaCompraRow {
  id: number;
  id_compra: number;
  id_item: number;
  cantidad: string;
  costo_unitario: string;
}

interface MarcaRow {
  id_raw: number;
  id_usuario: number;
  dia: number;
  hora: string;
  modo: 'entrada' | 'salida';
  datos: Record<string, string>;
}

interface IntervaloRow {
  id_intervalo: number;
  id_usuario: number;
  dia: number;
  id_raw_entrada: number;
  id_raw_salida: number | null;
}

// ---------------------------------------------------------------------------------------------
// The seed
// ---------------------------------------------------------------------------------------------

/**
 * Inserts the demo data into an empty, migrated tenant database. The caller runs it inside
 * one transaction. Returns the number of rows inserted per table.
 */
export async function seedDemoData(
  query: DemoQuery,
  options: DemoDataOptions,
): Promise<DemoDataSummary> {
  const todayUtc = parseToday(options.today);
  const { today, timeZone } = options;
  const rng = new Rng(SEED);
  const json = (rows: readonly object[]): string => JSON.stringify(rows);
  /** Weekday (0 = Sunday) of the day `dia` days before today. */
  const weekday = (dia: number): number => new Date(todayUtc - dia * 86_400_000).getUTCDay();

  const materiaId = new Map(MATERIAS.map((m, i) => [m.nombre, i + 1]));
  const productoId = new Map(PRODUCTOS.map((p, i) => [p.nombre, i + 1]));
  const categoriaId = new Map(CATEGORIAS.map((c, i) => [c.nombre, i + 1]));
  const rolId = new Map(ROLES.map((r, i) => [r.nombre, i + 1]));
  const idOf = (map: Map<string, number>, name: string): number => {
    const id = map.get(name);
    if (id === undefined) throw new Error(`demo data: unknown name "${name}"`);
    return id;
  };

  // --- roles, staff --------------------------------------------------------------------------
  await query(
    `INSERT INTO roles (id_rol, nombre, descripcion)
     SELECT r.id_rol, r.nombre, r.descripcion
       FROM jsonb_to_recordset($1::jsonb) AS r(id_rol integer, nombre text, descripcion text)`,
    [json(ROLES.map((r, i) => ({ id_rol: i + 1, ...r })))],
  );

  const documentos = new Set<string>();
  const uniqueDigits = (first: number, n: number): string => {
    for (;;) {
      const doc = String(first) + rng.digits(n - 1);
      if (!documentos.has(doc)) {
        documentos.add(doc);
        return doc;
      }
    }
  };
  const usuarios = STAFF.map((s, i) => ({
    id_usuario: i + 1,
    documento: uniqueDigits(rng.int(1, 7), 8),
    nombre: s.nombre,
    apellido: s.apellido,
    email: `${s.nombre.split(' ')[0]}.${s.apellido.split(' ')[0]}@cevicheria.example`
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase(),
    telefono: `9${rng.digits(8)}`,
    dia: rng.int(400, 900),
    seg: rng.int(9 * 3600, 17 * 3600),
  }));
  await query(
    `INSERT INTO usuarios (id_usuario, documento, nombre, apellido, email, telefono, activo, created_at)
     SELECT r.id_usuario, r.documento, r.nombre, r.apellido, r.email, r.telefono, true,
            ${at('r.dia', 'r.seg')}
       FROM jsonb_to_recordset($1::jsonb) AS r(id_usuario integer, documento text, nombre text,
            apellido text, email text, telefono text, dia integer, seg integer)`,
    [json(usuarios), today, timeZone],
  );

  const usuaRoles = STAFF.flatMap((s, i) =>
    s.roles.map((rol) => ({ id_usuario: i + 1, id_rol: idOf(rolId, rol) })),
  );
  await query(
    `INSERT INTO usua_roles (id_usuario, id_rol)
     SELECT r.id_usuario, r.id_rol
       FROM jsonb_to_recordset($1::jsonb) AS r(id_usuario integer, id_rol integer)`,
    [json(usuaRoles)],
  );

  // --- menu ----------------------------------------------------------------------------------
  await query(
    `INSERT INTO categorias (id_categoria, nombre, descripcion, activo)
     SELECT r.id_categoria, r.nombre, r.descripcion, true
       FROM jsonb_to_recordset($1::jsonb) AS r(id_categoria integer, nombre text, descripcion text)`,
    [json(CATEGORIAS.map((c, i) => ({ id_categoria: i + 1, ...c })))],
  );

  await query(
    `INSERT INTO mate_primas (id_mat_prima, nombre, unidad, activo)
     SELECT r.id_mat_prima, r.nombre, r.unidad, true
       FROM jsonb_to_recordset($1::jsonb) AS r(id_mat_prima integer, nombre text, unidad text)`,
    [json(MATERIAS.map((m, i) => ({ id_mat_prima: i + 1, nombre: m.nombre, unidad: m.unidad })))],
  );

  const productos = PRODUCTOS.map((p, i) => ({
    id_producto: i + 1,
    nombre: p.nombre,
    precio: money(p.precio),
    id_categoria: idOf(categoriaId, p.categoria),
    dia: 380,
    seg: 10 * 3600 + i * 60,
  }));
  await query(
    `INSERT INTO productos (id_producto, nombre, img_producto, precio, activo, id_categoria,
                            created_at, updated_at)
     SELECT r.id_producto, r.nombre, NULL, r.precio, true, r.id_categoria,
            ${at('r.dia', 'r.seg')}, ${at('r.dia', 'r.seg')}
       FROM jsonb_to_recordset($1::jsonb) AS r(id_producto integer, nombre text, precio numeric,
            id_categoria integer, dia integer, seg integer)`,
    [json(productos), today, timeZone],
  );

  const recetas = PRODUCTOS.flatMap((p, i) =>
    p.receta.map(([materia, milli]) => ({
      id_producto: i + 1,
      id_mat_prima: idOf(materiaId, materia),
      cantidad: qty(milli),
    })),
  );
  await query(
    `INSERT INTO receta_producto (id_producto, id_mat_prima, cantidad)
     SELECT r.id_producto, r.id_mat_prima, r.cantidad
       FROM jsonb_to_recordset($1::jsonb) AS r(id_producto integer, id_mat_prima integer,
            cantidad numeric)`,
    [json(recetas)],
  );

  // --- suppliers -----------------------------------------------------------------------------
  const proveedores = PROVEEDORES.map((p, i) => ({
    id_proveedor: i + 1,
    razon_social: p.razonSocial,
    documento: ruc(rng, '20'),
    telefono: p.telefono,
    email: p.email,
    direccion: p.direccion,
  }));
  await query(
    `INSERT INTO proveedores (id_proveedor, razon_social, documento, telefono, email, direccion,
                              activo)
     SELECT r.id_proveedor, r.razon_social, r.documento, r.telefono, r.email, r.direccion, true
       FROM jsonb_to_recordset($1::jsonb) AS r(id_proveedor integer, razon_social text,
            documento text, telefono text, email text, direccion text)`,
    [json(proveedores)],
  );

  const provMaterias = PROVEEDORES.flatMap((p, i) =>
    p.materias.map(([materia, cents]) => ({
      id_proveedor: i + 1,
      id_mat_prima: idOf(materiaId, materia),
      precio: money(cents),
    })),
  );
  await query(
    `INSERT INTO prov_mate_prima (id_proveedor, id_mat_prima, precio)
     SELECT r.id_proveedor, r.id_mat_prima, r.precio
       FROM jsonb_to_recordset($1::jsonb) AS r(id_proveedor integer, id_mat_prima integer,
            precio numeric)`,
    [json(provMaterias)],
  );

  const provProductos = PROVEEDORES.flatMap((p, i) =>
    p.productos.map(([producto, cents]) => ({
      id_proveedor: i + 1,
      id_producto: idOf(productoId, producto),
      precio: money(cents),
    })),
  );
  await query(
    `INSERT INTO prov_producto (id_proveedor, id_producto, precio)
     SELECT r.id_proveedor, r.id_producto, r.precio
       FROM jsonb_to_recordset($1::jsonb) AS r(id_proveedor integer, id_producto integer,
            precio numeric)`,
    [json(provProductos)],
  );

  // --- customers and tables ------------------------------------------------------------------
  const clientes = CLIENTES.map((c, i) => ({
    id_cliente: i + 1,
    documento:
      c.doc === 'dni' ? uniqueDigits(rng.int(1, 7), 8) : c.doc === 'ruc' ? ruc(rng, '20') : null,
    nombre: c.nombre,
    apellido: c.apellido,
    telefono: rng.chance(0.8) ? `9${rng.digits(8)}` : null,
    email:
      c.apellido !== null && rng.chance(0.6)
        ? `${c.nombre.split(' ')[0]}.${c.apellido.split(' ')[0]}${rng.int(1, 99)}@correo.example`
            .normalize('NFD')
            .replace(/[\u0300-\u036f]/g, '')
            .toLowerCase()
        : null,
    direccion: c.direccion,
    dia: rng.int(60, 360),
    seg: rng.int(12 * 3600, 22 * 3600),
  }));
  await query(
    `INSERT INTO clientes (id_cliente, documento, nombre, apellido, telefono, email, direccion,
                           created_at)
     SELECT r.id_cliente, r.documento, r.nombre, r.apellido, r.telefono, r.email, r.direccion,
            ${at('r.dia', 'r.seg')}
       FROM jsonb_to_recordset($1::jsonb) AS r(id_cliente integer, documento text, nombre text,
            apellido text, telefono text, email text, direccion text, dia integer, seg integer)`,
    [json(clientes), today, timeZone],
  );

  const MESAS = 12;
  const mesas = Array.from({ length: MESAS }, (_, i) => ({
    id_mesa: i + 1,
    numero: i + 1,
    zona: i < 8 ? 'Salón' : 'Terraza',
    capacidad: [2, 4, 4, 6][i % 4],
  }));
  await query(
    `INSERT INTO mesas (id_mesa, numero, zona, capacidad, activo)
     SELECT r.id_mesa, r.numero, r.zona, r.capacidad, true
       FROM jsonb_to_recordset($1::jsonb) AS r(id_mesa integer, numero integer, zona text,
            capacidad integer)`,
    [json(mesas)],
  );

  // --- order tickets -------------------------------------------------------------------------
  // 300 tickets over the 365 days before today: 15 still open (yesterday and the day before),
  // 12 logically deleted (7 voided while open, 5 after closing), the rest closed.
  type Kind = 'cerrada' | 'abierta' | 'anulada_abierta' | 'anulada_cerrada';
  const kinds: Kind[] = [
    ...Array<Kind>(273).fill('cerrada'),
    ...Array<Kind>(15).fill('abierta'),
    ...Array<Kind>(7).fill('anulada_abierta'),
    ...Array<Kind>(5).fill('anulada_cerrada'),
  ];
  const drafts = kinds.map((kind) => {
    const dia = kind === 'abierta' ? rng.int(1, 2) : rng.int(1, 365);
    const cena = rng.chance(0.3);
    // Lunch 12:00-15:30, dinner 19:00-21:30 (a cevichería lives at lunch time).
    const segApertura = cena ? rng.int(19 * 3600, 21.5 * 3600) : rng.int(12 * 3600, 15.5 * 3600);
    return { kind, dia, cena, segApertura };
  });
  // Chronological order: keys and ticket numbers grow with time, like on a real till.
  drafts.sort((a, b) => b.dia - a.dia || a.segApertura - b.segApertura);

  const pesos = PRODUCTOS.map((p) => p.peso);
  const comandas: ComandaRow[] = [];
  const lineas: DetaComandaRow[] = [];
  const eventos: EventoRow[] = [];
  // Open tickets sit at distinct tables; the rest of them are take-away.
  const mesasLibres = Array.from({ length: MESAS }, (_, i) => i + 1);

  for (const [index, draft] of drafts.entries()) {
    const id = index + 1;
    const { kind, dia, cena, segApertura } = draft;
    const cerrada = kind === 'cerrada' || kind === 'anulada_cerrada';
    const anulada = kind === 'anulada_abierta' || kind === 'anulada_cerrada';
    const mozo = rng.pick(cena ? MOZOS_CENA : MOZOS_ALMUERZO);

    let idMesa: number | null;
    if (kind === 'abierta') {
      idMesa =
        mesasLibres.length > 0 && rng.chance(0.85)
          ? mesasLibres.splice(rng.int(0, mesasLibres.length - 1), 1)[0]
          : null;
    } else {
      idMesa = rng.chance(0.15) ? null : rng.int(1, MESAS);
    }
    const idCliente = rng.chance(0.3) ? rng.int(1, CLIENTES.length) : null;
    const observacion =
      idMesa === null ? 'Para llevar' : rng.chance(0.1) ? rng.pick(OBSERVACIONES) : null;

    const segCierre = cerrada ? segApertura + rng.int(35, 100) * 60 + rng.int(0, 59) : null;
    const segEliminacion = !anulada
      ? null
      : segCierre !== null
        ? segCierre + rng.int(5, 25) * 60
        : segApertura + rng.int(8, 40) * 60;

    comandas.push({
      id_comanda: id,
      id_mesa: idMesa,
      id_usuario: mozo,
      id_cliente: idCliente,
      estado: cerrada ? 'cerrada' : 'abierta',
      dia,
      seg_apertura: segApertura,
      seg_cierre: segCierre,
      seg_eliminacion: segEliminacion,
      observacion,
      version: 1 + (cerrada ? 1 : 0) + (anulada ? 1 : 0),
    });

    // 1-6 distinct products, most tickets 2-4 lines.
    const nLineas = [1, 2, 2, 3, 3, 3, 4, 4, 5, 6][rng.int(0, 9)];
    const elegidos = new Set<number>();
    while (elegidos.size < nLineas) elegidos.add(rng.weighted(pesos) + 1);
    let seg = segApertura + 60;
    for (const idProducto of elegidos) {
      const bebida = PRODUCTOS[idProducto - 1].categoria === 'Bebidas';
      const cantidad = bebida ? rng.int(1, 4) : rng.chance(0.75) ? 1 : rng.int(2, 3);
      seg += rng.int(30, 150);
      lineas.push({
        id_deta_comanda: lineas.length + 1,
        id_comanda: id,
        id_producto: idProducto,
        cantidad: qty(cantidad * 1000),
        nota: rng.chance(0.12) ? rng.pick(NOTAS) : null,
        id_usuario: mozo,
        dia,
        seg,
      });
    }

    eventos.push({
      id_comanda: id,
      accion: 'crear',
      id_usuario: mozo,
      motivo: null,
      dia,
      seg: segApertura,
    });
    if (segCierre !== null) {
      const cajero = rng.chance(0.1) ? ADMIN : cena ? CAJERO_NOCHE : CAJERO_DIA;
      eventos.push({
        id_comanda: id,
        accion: 'cerrar',
        id_usuario: cajero,
        motivo: null,
        dia,
        seg: segCierre,
      });
    }
    if (segEliminacion !== null) {
      eventos.push({
        id_comanda: id,
        accion: 'eliminar',
        id_usuario: ADMIN,
        motivo: rng.pick(MOTIVOS_ELIMINACION),
        dia,
        seg: segEliminacion,
      });
    }
  }
  // Event keys in time order across tickets, as a live system would have written them.
  eventos.sort((a, b) => b.dia - a.dia || a.seg - b.seg || a.id_comanda - b.id_comanda);

  await query(
    `INSERT INTO comandas (id_comanda, numero_ticket, id_mesa, id_usuario, id_cliente, estado,
                           fec_apertura, fec_cierre, total, observacion, eliminada,
                           fec_eliminacion, version)
     SELECT r.id_comanda, r.id_comanda, r.id_mesa, r.id_usuario, r.id_cliente, r.estado,
            ${at('r.dia', 'r.seg_apertura')},
            CASE WHEN r.seg_cierre IS NOT NULL THEN ${at('r.dia', 'r.seg_cierre')} END,
            0, r.observacion, r.seg_eliminacion IS NOT NULL,
            CASE WHEN r.seg_eliminacion IS NOT NULL THEN ${at('r.dia', 'r.seg_eliminacion')} END,
            r.version
       FROM jsonb_to_recordset($1::jsonb) AS r(id_comanda bigint, id_mesa integer,
            id_usuario integer, id_cliente integer, estado text, dia integer,
            seg_apertura integer, seg_cierre integer, seg_eliminacion integer,
            observacion text, version integer)`,
    [json(comandas), today, timeZone],
  );

  // Unit price = the product's price (captured at order time).
  await query(
    `INSERT INTO deta_comandas (id_deta_comanda, id_comanda, id_producto, cantidad,
                                precio_unitario, nota, id_usuario, fec_registro)
     SELECT r.id_deta_comanda, r.id_comanda, r.id_producto, r.cantidad, p.precio, r.nota,
            r.id_usuario, ${at('r.dia', 'r.seg')}
       FROM jsonb_to_recordset($1::jsonb) AS r(id_deta_comanda bigint, id_comanda bigint,
            id_producto integer, cantidad numeric, nota text, id_usuario integer, dia integer,
            seg integer)
       JOIN productos p ON p.id_producto = r.id_producto`,
    [json(lineas), today, timeZone],
  );

  // Total = sum of the generated line subtotals (kept for open tickets too: the running total).
  await query(
    `UPDATE comandas c
        SET total = s.total
       FROM (SELECT id_comanda, sum(subtotal) AS total FROM deta_comandas GROUP BY id_comanda) s
      WHERE s.id_comanda = c.id_comanda`,
  );

  await query(
    `INSERT INTO comanda_eventos (id_evento, id_comanda, accion, id_usuario, motivo, antes,
                                  despues, fec_evento)
     SELECT r.id_evento, r.id_comanda, r.accion, r.id_usuario, r.motivo,
            CASE r.accion
              WHEN 'crear' THEN NULL
              WHEN 'cerrar' THEN jsonb_build_object('estado', 'abierta')
              ELSE jsonb_build_object('eliminada', false)
            END,
            CASE r.accion
              WHEN 'crear' THEN jsonb_build_object('estado', 'abierta', 'id_mesa', c.id_mesa,
                                                   'id_usuario', c.id_usuario,
                                                   'id_cliente', c.id_cliente)
              WHEN 'cerrar' THEN jsonb_build_object('estado', 'cerrada', 'total', c.total)
              ELSE jsonb_build_object('eliminada', true)
            END,
            ${at('r.dia', 'r.seg')}
       FROM jsonb_to_recordset($1::jsonb) AS r(id_evento bigint, id_comanda bigint, accion text,
            id_usuario integer, motivo text, dia integer, seg integer)
       JOIN comandas c ON c.id_comanda = r.id_comanda`,
    [json(eventos.map((e, i) => ({ id_evento: i + 1, ...e }))), today, timeZone],
  );

  // --- purchases -----------------------------------------------------------------------------
  // 30 purchases over the last 12 months, delivered in the morning, each with 2-5 lines of
  // what that supplier sells, at its agreed price give or take 8 %.
  const compraDias = Array.from({ length: 30 }, (_, k) => 365 - k * 12 - rng.int(0, 10)).sort(
    (a, b) => b - a,
  );
  const facturas = PROVEEDORES.map(() => rng.int(1000, 8000));
  const compras: CompraRow[] = [];
  const compMaterias: DetaCompraRow[] = [];
  const compProductos: DetaCompraRow[] = [];
  const costo = (cents: number): string => money(Math.round(cents * (0.92 + rng.int(0, 16) / 100)));
  for (const [k, dia] of compraDias.entries()) {
    const p = rng.weighted(PROVEEDORES.map((prov) => prov.peso));
    const prov = PROVEEDORES[p];
    const id = k + 1;
    facturas[p] += rng.int(3, 40);
    compras.push({
      id_compra: id,
      id_proveedor: p + 1,
      dia,
      seg: rng.int(7 * 3600, 10 * 3600),
      observacion: `Factura F001-${String(facturas[p]).padStart(8, '0')}`,
    });
    const nProductos = prov.productos.length > 0 ? rng.int(1, 2) : 0;
    const nMaterias = rng.int(Math.max(1, 2 - nProductos), 5 - nProductos);
    const materias = new Set<number>();
    while (materias.size < nMaterias) materias.add(rng.int(0, prov.materias.length - 1));
    for (const m of [...materias].sort((a, b) => a - b)) {
      const [nombre, cents] = prov.materias[m];
      const [min, max] = MATERIAS[idOf(materiaId, nombre) - 1].lote;
      const media = rng.chance(0.3) && max - min < 50 ? 500 : 0;
      compMaterias.push({
        id: compMaterias.length + 1,
        id_compra: id,
        id_item: idOf(materiaId, nombre),
        cantidad: qty(rng.int(min, max) * 1000 + media),
        costo_unitario: costo(cents),
      });
    }
    const productosCompra = new Set<number>();
    while (productosCompra.size < nProductos) {
      productosCompra.add(rng.int(0, prov.productos.length - 1));
    }
    for (const q of [...productosCompra].sort((a, b) => a - b)) {
      const [nombre, cents] = prov.productos[q];
      compProductos.push({
        id: compProductos.length + 1,
        id_compra: id,
        id_item: idOf(productoId, nombre),
        cantidad: qty(rng.int(2, 6) * 12 * 1000),
        costo_unitario: costo(cents),
      });
    }
  }

  await query(
    `INSERT INTO compras (id_compra, id_proveedor, fec_compra, total, observacion, created_at,
                          updated_at)
     SELECT r.id_compra, r.id_proveedor, ${at('r.dia', 'r.seg')}, 0, r.observacion,
            ${at('r.dia', 'r.seg')}, ${at('r.dia', 'r.seg')}
       FROM jsonb_to_recordset($1::jsonb) AS r(id_compra integer, id_proveedor integer,
            dia integer, seg integer, observacion text)`,
    [json(compras), today, timeZone],
  );
  await query(
    `INSERT INTO deta_comp_materias (id_deta_comp_materia, id_compra, id_mat_prima, cantidad,
                                     costo_unitario)
     SELECT r.id, r.id_compra, r.id_item, r.cantidad, r.costo_unitario
       FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, id_compra integer, id_item integer,
            cantidad numeric, costo_unitario numeric)`,
    [json(compMaterias)],
  );
  await query(
    `INSERT INTO deta_comp_producto (id_deta_comp_producto, id_compra, id_producto, cantidad,
                                     costo_unitario)
     SELECT r.id, r.id_compra, r.id_item, r.cantidad, r.costo_unitario
       FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, id_compra integer, id_item integer,
            cantidad numeric, costo_unitario numeric)`,
    [json(compProductos)],
  );
  await query(
    `UPDATE compras c
        SET total = s.total
       FROM (SELECT id_compra, sum(subtotal) AS total
               FROM (SELECT id_compra, subtotal FROM deta_comp_materias
                     UNION ALL
                     SELECT id_compra, subtotal FROM deta_comp_producto) l
              GROUP BY id_compra) s
      WHERE s.id_compra = c.id_compra`,
  );

  // --- attendance ----------------------------------------------------------------------------
  // The 30 days before today. Punches are the clock's local wall-clock date and time. A late
  // shift's out-punch (about 01:30) lands on the next calendar day but belongs to the work day
  // of its in-punch (day cut-off 05:00). Shifts whose out-punch would fall on today are not
  // worked, except the missing out-punch cases of SIN_SALIDA.
  const marcas: MarcaRow[] = [];
  const intervalos: IntervaloRow[] = [];
  let diasTrabajados = 0;
  const marca = (idUsuario: number, diaTrabajo: number, seg: number, modo: MarcaRow['modo']) => {
    const row: MarcaRow = {
      id_raw: marcas.length + 1,
      id_usuario: idUsuario,
      dia: diaTrabajo - Math.floor(seg / 86_400),
      hora: clock(seg % 86_400),
      modo,
      datos: { device_id: 'DEMO-ZK01', verify_mode: rng.chance(0.9) ? 'fingerprint' : 'pin' },
    };
    marcas.push(row);
    return row.id_raw;
  };
  for (let dia = 30; dia >= 1; dia--) {
    for (const [i, staff] of STAFF.entries()) {
      const idUsuario = i + 1;
      const sinSalida = SIN_SALIDA.some(([u, d]) => u === idUsuario && d === dia);
      const libre = weekday(dia) === staff.descanso || rng.chance(0.07);
      const cruzaHoy = dia === 1 && staff.turno.some(([, fin]) => fin > 1440);
      if (!sinSalida && (libre || cruzaHoy)) continue;
      diasTrabajados++;
      for (const [n, [inicio, fin]] of staff.turno.entries()) {
        const segEntrada = inicio * 60 + rng.int(-12, 8) * 60 + rng.int(0, 59);
        const segSalida = fin * 60 + rng.int(-5, 15) * 60 + rng.int(0, 59);
        const idEntrada = marca(idUsuario, dia, segEntrada, 'entrada');
        const ultimo = n === staff.turno.length - 1;
        const idSalida = sinSalida && ultimo ? null : marca(idUsuario, dia, segSalida, 'salida');
        intervalos.push({
          id_intervalo: intervalos.length + 1,
          id_usuario: idUsuario,
          dia,
          id_raw_entrada: idEntrada,
          id_raw_salida: idSalida,
        });
      }
    }
  }

  await query(
    `INSERT INTO asistencia_detalle (id_raw, id_usuario, fecha, hora, modo, origen, datos,
                                     created_at)
     SELECT r.id_raw, r.id_usuario, $2::date - r.dia, r.hora::time, r.modo, 'demo', r.datos,
            (($2::date - r.dia) + r.hora::time) AT TIME ZONE $3
       FROM jsonb_to_recordset($1::jsonb) AS r(id_raw bigint, id_usuario integer, dia integer,
            hora text, modo text, datos jsonb)`,
    [json(marcas), today, timeZone],
  );
  await query(
    `INSERT INTO asistencia_intervalo (id_intervalo, id_usuario, fecha_trabajo, entrada, salida,
                                       id_raw_entrada, id_raw_salida)
     SELECT r.id_intervalo, r.id_usuario, $2::date - r.dia, e.fecha + e.hora, s.fecha + s.hora,
            r.id_raw_entrada, r.id_raw_salida
       FROM jsonb_to_recordset($1::jsonb) AS r(id_intervalo bigint, id_usuario integer,
            dia integer, id_raw_entrada bigint, id_raw_salida bigint)
       JOIN asistencia_detalle e ON e.id_raw = r.id_raw_entrada
       LEFT JOIN asistencia_detalle s ON s.id_raw = r.id_raw_salida`,
    [json(intervalos), today],
  );
  // Daily summary = what the pairing would write: closed minutes, intervals, punches, open flag.
  await query(
    `INSERT INTO asistencia_resumen_diario (id_usuario, fecha_trabajo, minutos, intervalos,
                                            marcas, incompleto, updated_at)
     SELECT id_usuario, fecha_trabajo, coalesce(sum(minutos), 0)::integer, count(*)::integer,
            (count(id_raw_entrada) + count(id_raw_salida))::integer, bool_or(salida IS NULL),
            max(coalesce(salida, entrada)) AT TIME ZONE $1
       FROM asistencia_intervalo
      GROUP BY id_usuario, fecha_trabajo`,
    [timeZone],
  );

  // --- identities: continue after the keys given above ---------------------------------------
  await query(
    `SELECT ${IDENTITIES.map(
      ([table, column]) =>
        `setval(pg_get_serial_sequence('${table}', '${column}'),
                (SELECT coalesce(max(${column}), 0) + 1 FROM ${table}), false)`,
    ).join(',\n            ')},
            setval('comandas_numero_ticket_seq',
                   (SELECT coalesce(max(numero_ticket), 0) + 1 FROM comandas), false)`,
  );

  return {
    roles: ROLES.length,
    usuarios: usuarios.length,
    usua_roles: usuaRoles.length,
    categorias: CATEGORIAS.length,
    productos: productos.length,
    clientes: clientes.length,
    mesas: mesas.length,
    comandas: comandas.length,
    deta_comandas: lineas.length,
    comanda_eventos: eventos.length,
    proveedores: proveedores.length,
    mate_primas: MATERIAS.length,
    compras: compras.length,
    deta_comp_producto: compProductos.length,
    deta_comp_materias: compMaterias.length,
    prov_producto: provProductos.length,
    prov_mate_prima: provMaterias.length,
    receta_producto: recetas.length,
    asistencia_detalle: marcas.length,
    asistencia_intervalo: intervalos.length,
    asistencia_resumen_diario: diasTrabajados,
  };
}

/** Identity columns whose sequences must move past the explicit demo keys (fixed names only). */
const IDENTITIES: readonly (readonly [string, string])[] = [
  ['roles', 'id_rol'],
  ['usuarios', 'id_usuario'],
  ['categorias', 'id_categoria'],
  ['productos', 'id_producto'],
  ['clientes', 'id_cliente'],
  ['mesas', 'id_mesa'],
  ['comandas', 'id_comanda'],
  ['deta_comandas', 'id_deta_comanda'],
  ['comanda_eventos', 'id_evento'],
  ['proveedores', 'id_proveedor'],
  ['mate_primas', 'id_mat_prima'],
  ['compras', 'id_compra'],
  ['deta_comp_producto', 'id_deta_comp_producto'],
  ['deta_comp_materias', 'id_deta_comp_materia'],
  ['asistencia_detalle', 'id_raw'],
  ['asistencia_intervalo', 'id_intervalo'],
];
