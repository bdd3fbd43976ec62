import { RequiredBody } from '../comment-body';

export class PostReplyRequest {
  @RequiredBody()
  body!: Record<string, unknown>;
}
