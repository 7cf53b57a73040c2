// The baseline: a bare Fastify app on the same machine, same Node, same run.
import Fastify from 'fastify'

const app = Fastify({ logger: false })
app.get('/hello', async () => ({ hello: 'world' }))
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' })
console.log(`listening ${app.server.address().port}`)
