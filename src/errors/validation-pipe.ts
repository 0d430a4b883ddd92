/**
 * Request validation with class-validator: unknown fields are refused, types are not coerced, and
 * every problem is reported per field in the problem+json `errors` array.
 */
import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { AppError, type FieldProblem } from './app-error';

export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) =>
      new AppError('validation', 'REQUEST.INVALID', 'The request is invalid', { errors: flatten(errors) }),
  });
}

function flatten(errors: ValidationError[], parent = ''): FieldProblem[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}
