import { Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandContext } from '@gridrocket/shared';
import { Ctx, CurrentUser, SessionUser } from '@gridrocket/shared/http';
import { SessionController } from '../session-controller';
import { SessionOnly } from '../access-tokens/access-token.scope';
import { SessionService } from '../session.service';

/**
 * Issue 30: the user's sessions under the user's control. Each session is shown by an opaque id (a keyed
 * digest, never the session id); signing one out, or all but this one, ends it at once, and its sockets
 * with it (the push gateway disconnects the sockets of a session whose document is deleted).
 */
@SessionController('sessions')
@SessionOnly() // issue 31: never with an access token
export class SessionsController {
  constructor(private readonly sessions: SessionService) {}

  @Get()
  async list(@CurrentUser() user: SessionUser) {
    return { sessions: await this.sessions.listSessions(user) };
  }

  /** "Sign out everywhere else": every session but this one ends. */
  @Post('sign-out-others')
  @HttpCode(200)
  async signOutOthers(@CurrentUser() user: SessionUser, @Ctx() ctx: CommandContext) {
    return { signedOut: await this.sessions.signOutOthers(user, ctx) };
  }

  /** Ends one session (this one too, like Log out); 404 for an id that is none of the user's sessions. */
  @Delete(':id')
  @HttpCode(204)
  async signOut(@Param('id') id: string, @CurrentUser() user: SessionUser, @Ctx() ctx: CommandContext) {
    await this.sessions.signOutSession(user, id, ctx);
  }
}
