// The baseline: a bare Fastify app on the same machine, same Node, same run. GET /hello answers a small
// JSON; POST /upload reads a multipart file the way the app does (@fastify/multipart) and drops it.
import multipart from '@fastify/multipart'
import Fastify from 'fastify'

const app = Fastify({ logger: false })
await app.register(multipart, { limits: { fileSize: 5 * 1024 * 1024 } })
app.get('/hello', async () => ({ hello: 'world' }))
app.post('/upload', async (request) => {
  const part = await request.file()
  const bytes = await part.toBuffer()
  return { size: bytes.length }
})
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' })
console.log(`listening ${app.server.address().port}`)
