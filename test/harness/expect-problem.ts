/**
 * The bad-input matrices' one assertion on an answer: the status, `application/problem+json`, the
 * stable code and a title, and per-field details for a validation error.
 */
import type { LightMyRequestResponse as Response } from 'fastify';

export function expectProblem(response: Response, status: number, code: string): void {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = response.json();
  expect(problem).toMatchObject({ status, code, title: expect.any(String) });
  if (code === 'REQUEST.INVALID')
    expect(problem.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: expect.any(String), message: expect.any(String) })]),
    );
}
