import { isObject, type Scenario } from './types.ts';

/** The baseline every other row is compared with (bench/servers/bare.ts). */
export const bare: Scenario = {
  id: 'bare',
  title: 'bare Fastify, constant JSON',
  target: 'bare',
  method: 'GET',
  path: '/bare',
  check: (body) => (isObject(body) && body.hello === 'world' ? [] : ['expected {"hello":"world"}']),
};
